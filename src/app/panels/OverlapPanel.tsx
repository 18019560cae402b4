import { useMemo } from 'react';
import { useLab } from '../store';
import { bandResults } from '../store/roomSlice';
import { Panel } from './Panel';
import { fitLine, isOverlapSpec, overlapDots, type OverlapDot } from './overlapPoints';
import { OVERLAP_REFERENCE, OVERLAP_REFERENCE_BLOCK } from './overlapReference';

/** Axes: kappa from -0.4 to 1, gain from -0.4 to +0.6 (every measured point so far lies inside). */
const X0 = -0.4;
const X1 = 1;
const Y0 = -0.4;
const Y1 = 0.6;
const W = 460;
const H = 280;
const PAD = { l: 44, r: 12, t: 10, b: 34 };
const px = (k: number) => PAD.l + ((Math.min(X1, Math.max(X0, k)) - X0) / (X1 - X0)) * (W - PAD.l - PAD.r);
const py = (g: number) => H - PAD.b - ((Math.min(Y1, Math.max(Y0, g)) - Y0) / (Y1 - Y0)) * (H - PAD.t - PAD.b);

/** One colour per level, least overlapping (by design) first; the cross-family partner in grey-blue. */
const LEVEL_COLOURS = ['#1b7837', '#5aae61', '#d6a300', '#e66101', '#b2182b'];
const CROSS_COLOUR = '#4575b4';

function line(fit: { slope: number; intercept: number } | null, testId: string, stroke: string, dash?: string) {
  if (!fit) return null;
  return <line data-testid={testId} stroke={stroke} strokeWidth={2} strokeDasharray={dash} x1={px(X0)} y1={py(fit.intercept + fit.slope * X0)} x2={px(X1)} y2={py(fit.intercept + fit.slope * X1)} />;
}

const fmt = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;

/**
 * "Does a more different partner teach more?" (issue 30): every finished run of the overlap preset
 * adds one point per dial level (the partner's measured base kappa with A, A's held-out gain next
 * to it), drawn over the points of the preset's reference block and its fitted line. The class's
 * runs (a room) count as well as this browser's seeds. Shown only for a spec with an overlap dial.
 */
export function OverlapPanel() {
  // The run's spec once it started, else a class room's experiment (the presenter's page trains
  // nothing; its projector view has no experiment panel), else the experiment as edited (so the
  // panel is there before Start).
  const spec = useLab((s) => s.run.spec ?? s.room.info?.spec ?? s.draft);
  const phase = useLab((s) => s.run.phase);
  const summary = useLab((s) => s.run.summary);
  const results = useLab(bandResults);
  const classRuns = useLab((s) => s.room.results.length > 0);
  const dots = useMemo(() => {
    const runs = results.filter((r) => r.finished && r.summary && isOverlapSpec(r.record.spec)).map((r) => ({ spec: r.record.spec, summary: r.summary! }));
    if (phase === 'done' && summary && isOverlapSpec(spec)) runs.push({ spec, summary });
    return overlapDots(runs);
  }, [results, phase, summary, spec]);
  if (!isOverlapSpec(spec)) return null;
  const arms = spec.arms.filter((a) => a.scheme === 'peer' && a.members.includes(spec.members[0].id)).map((a) => a.id);
  const colour = (d: OverlapDot) => (d.sameFamily ? LEVEL_COLOURS[Math.min(arms.indexOf(d.arm), LEVEL_COLOURS.length - 1)] ?? '#666' : CROSS_COLOUR);
  const refFit = fitLine(OVERLAP_REFERENCE);
  const liveFit = fitLine(dots);
  const seeds = new Set(dots.map((d) => d.seed)).size;
  return (
    <Panel
      id="overlap"
      title="Does a more different partner teach more?"
      wide
      intro={
        <p>
          Each peer arm pairs A with a partner whose errors overlap A's by a different amount. Every finished run adds one
          point per partner: how much its errors overlapped A's before training (kappa, across) and how much A gained on
          held-out problems next to it (up). Grey: the lab's {OVERLAP_REFERENCE_BLOCK} and their line. If a more
          different partner teaches more, the points fall from left to right.
        </p>
      }
    >
      <svg className="overlap-plot" data-testid="overlap-plot" data-points={dots.length} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`A's gain against the partner's base kappa: ${dots.length} points from ${seeds} runs`} style={{ maxWidth: W, width: '100%' }}>
        <line x1={px(X0)} y1={py(0)} x2={px(X1)} y2={py(0)} stroke="#999" strokeDasharray="2 3" />
        <line x1={px(0)} y1={py(Y0)} x2={px(0)} y2={py(Y1)} stroke="#ccc" />
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#333" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#333" />
        {[-0.4, 0, 0.5, 1].map((k) => (
          <text key={`x${k}`} x={px(k)} y={H - PAD.b + 14} fontSize="10" textAnchor="middle">{k}</text>
        ))}
        {[-0.4, -0.2, 0, 0.2, 0.4, 0.6].map((g) => (
          <text key={`y${g}`} x={PAD.l - 4} y={py(g) + 3} fontSize="10" textAnchor="end">{fmt(g)}</text>
        ))}
        <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} fontSize="11" textAnchor="middle">partner's base kappa with A (error overlap)</text>
        <text x={10} y={(PAD.t + H - PAD.b) / 2} fontSize="11" textAnchor="middle" transform={`rotate(-90 10 ${(PAD.t + H - PAD.b) / 2})`}>A's gain</text>
        {OVERLAP_REFERENCE.map((d, i) => (
          <circle key={`r${i}`} cx={px(d.kappa)} cy={py(d.gain)} r={2.5} fill="#bbb" />
        ))}
        {line(refFit, 'overlap-ref-line', '#bbb', '5 4')}
        {line(liveFit, 'overlap-live-line', '#333')}
        {dots.map((d, i) => (
          <circle key={`d${i}`} cx={px(d.kappa)} cy={py(d.gain)} r={4.5} fill={colour(d)} stroke="#fff" data-arm={d.arm}>
            <title>{`seed ${d.seed}, ${d.partner}: kappa ${d.kappa.toFixed(2)}, A's gain ${fmt(d.gain)}`}</title>
          </circle>
        ))}
      </svg>
      <p className="sub" data-testid="overlap-summary">
        {dots.length === 0
          ? 'No finished run yet: the points appear when a run of this experiment ends.'
          : `${dots.length} points from ${seeds} run${seeds === 1 ? '' : 's'}${liveFit ? `; the line through the same-family points falls ${fmt(-liveFit.slope)} of gain per +1 of kappa` : ''}${refFit ? ` (reference: ${fmt(-refFit.slope)})` : ''}.`}
      </p>
      <ul className="overlap-legend">
        {arms.map((a, i) => {
          const partner = spec.arms.find((x) => x.id === a)!.members.find((m) => m !== spec.members[0].id)!;
          const same = spec.members.find((m) => m.id === partner);
          const cross = same && (same.family !== spec.members[0].family || same.dModel !== spec.members[0].dModel || same.window !== spec.members[0].window || same.layers !== spec.members[0].layers);
          return (
            <li key={a}>
              <span aria-hidden="true" style={{ color: cross ? CROSS_COLOUR : LEVEL_COLOURS[Math.min(i, LEVEL_COLOURS.length - 1)] }}>●</span> {partner}
              {cross ? ' (another shape)' : ''}
            </li>
          );
        })}
      </ul>
      {dots.length > 0 && (
        <div className="table-scroll">
          <table data-testid="overlap-table">
            <caption>{classRuns ? "The class's points (a run per browser)" : "Your runs' points"}</caption>
            <thead>
              <tr>
                <th scope="col">seed</th>
                <th scope="col">partner</th>
                <th scope="col">base kappa</th>
                <th scope="col">A's gain</th>
              </tr>
            </thead>
            <tbody>
              {dots.map((d, i) => (
                <tr key={i}>
                  <td>{d.seed}</td>
                  <td>{d.partner}</td>
                  <td>{d.kappa.toFixed(2)}</td>
                  <td>{fmt(d.gain)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}
