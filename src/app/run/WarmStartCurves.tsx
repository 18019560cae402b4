/**
 * The warm start on screen: per member, the chance of writing a validation problem's reference
 * completion exactly, by warm-start step, against the member's target (dashed). It is what the
 * warm start measures to decide when to stop (docs/WARMSTARTS.md), so a student sees a task
 * being learnt, or not, before RL begins. Drawn while the warm start runs and when it missed;
 * folded into a closed "Warm start" section once RL has begun.
 */
import type { MemberInfo } from '../../core/experiment/events';
import { warmStartPercent } from '../../core/experiment/missWords';
import { useLab } from '../store';
import type { WarmCurve } from '../store/progress';

const W = 260;
const H = 90;
const PAD = { left: 30, right: 8, top: 8, bottom: 18 };

const pct = (x: number) => (x < 0.001 ? '<0.1%' : `${(100 * x).toFixed(x < 0.1 ? 1 : 0)}%`);

export function WarmStartCurves() {
  const curves = useLab((s) => s.run.warmCurves);
  const phase = useLab((s) => s.run.phase);
  const members = useLab((s) => s.run.members);
  if (curves.length === 0) return null;
  const body = (
    <div className="warm-curves" data-testid="warm-curves">
      {curves.map((c) => (
        <MemberCurve key={c.memberId} curve={c} record={members.find((m) => m.id === c.memberId)} />
      ))}
    </div>
  );
  if (phase === 'warmstart' || phase === 'error' || phase === 'preparing') {
    return (
      <section className="warm-curves-live" aria-label="Warm start">
        <h3 className="warm-curves-title">Warm start: how often each model writes a practice problem's answer exactly</h3>
        {body}
      </section>
    );
  }
  return (
    <details className="more warm-curves-done">
      <summary>Warm start ({curves.length === 1 ? 'one curve' : `${curves.length} curves`})</summary>
      {body}
    </details>
  );
}

/**
 * One member's curve. Its points are the values reported every few steps, so their highest is not
 * the best the warm start measured (it measures after every step): the caption says the best and
 * whether the target was reached only from the member's record (MemberInfo), the figure the miss's
 * sentence says too, and nothing of a best before the record arrives.
 */
function MemberCurve({ curve, record }: { curve: WarmCurve; record: MemberInfo | undefined }) {
  const last = curve.points[curve.points.length - 1];
  const best = curve.points.reduce((b, p) => Math.max(b, p.value), 0);
  const recordBest = record?.warmStartBest ?? record?.warmStartLast;
  const xMax = Math.max(curve.steps, last?.step ?? 1, 1);
  const yMax = Math.max(0.05, Math.min(1, Math.max(best, curve.target ?? 0) * 1.15));
  const x = (step: number) => PAD.left + (step / xMax) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - Math.min(v, yMax) / yMax) * (H - PAD.top - PAD.bottom);
  const path = curve.points.map((p, i) => `${i ? 'L' : 'M'}${x(p.step).toFixed(1)},${y(p.value).toFixed(1)}`).join('');
  const words =
    `Member ${curve.memberId}: ${last ? `${warmStartPercent(last.value)} at step ${last.step}` : 'no measurement yet'}` +
    (curve.target !== undefined
      ? `${recordBest !== undefined ? `, best ${warmStartPercent(recordBest)}` : ''}, target ${warmStartPercent(curve.target)}` +
        (record?.warmStartReached === true ? ' (reached)' : record?.warmStartReached === false ? ' (missed)' : '')
      : '');
  return (
    <figure className="warm-curve" data-testid="warm-curve" data-member={curve.memberId} data-best={recordBest ?? ''} data-points={curve.points.length}>
      <svg width={W} height={H} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={words}>
        <line x1={PAD.left} x2={W - PAD.right} y1={y(0)} y2={y(0)} className="warm-axis" />
        <line x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={y(0)} className="warm-axis" />
        <text x={PAD.left - 4} y={y(yMax) + 4} textAnchor="end" className="warm-tick">
          {pct(yMax)}
        </text>
        <text x={PAD.left - 4} y={y(0)} textAnchor="end" className="warm-tick">
          0
        </text>
        <text x={W - PAD.right} y={H - 4} textAnchor="end" className="warm-tick">
          step {xMax}
        </text>
        {curve.target !== undefined && <line x1={PAD.left} x2={W - PAD.right} y1={y(curve.target)} y2={y(curve.target)} className="warm-target" />}
        {path && <path d={path} className="warm-line" />}
      </svg>
      <figcaption className="sub">{words}</figcaption>
    </figure>
  );
}
