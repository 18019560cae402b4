import { useMemo } from 'react';
import { runsByLevel } from '../../room/levels';
import { useLab } from '../store';
import { bandResults } from '../store/roomSlice';
import { Panel } from './Panel';
import { useRunView } from '../charts/useRunView';
import { endsApart, endsContrast, isOverlapSpec, overlapDots } from './overlapPoints';
import { OVERLAP_REFERENCE, OVERLAP_REFERENCE_BLOCK } from './overlapReference';

/** Axes: kappa from -0.4 to 1, gain from -0.4 to +0.6 (every measured point so far lies inside). */
const X0 = -0.4;
const X1 = 1;
const Y0 = -0.4;
const Y1 = 0.6;
const W = 460;
const H = 280;
const PAD = { l: 50, r: 14, t: 10, b: 40 };
const px = (k: number) => PAD.l + ((Math.min(X1, Math.max(X0, k)) - X0) / (X1 - X0)) * (W - PAD.l - PAD.r);
const py = (g: number) => H - PAD.b - ((Math.min(Y1, Math.max(Y0, g)) - Y0) / (Y1 - Y0)) * (H - PAD.t - PAD.b);


const fmt = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
const runsWord = (n: number) => `${n} run${n === 1 ? '' : 's'}`;

/**
 * "Does a more different partner teach more?": every finished run of the overlap preset adds one
 * point per dial level (the partner's measured base kappa with A, A's held-out gain next to it),
 * drawn over the points of the preset's reference block. It says no more than RESULTS: the two
 * ends differ (A gains more next to the least overlapping partner than next to the most), and a
 * steady fall over the levels is not shown, so no fitted line is drawn. Each partner has its arm's
 * colour, as in the scoreboard and the charts. The class's runs (a room) count as well as this
 * browser's seeds. Shown only for a spec with an overlap dial.
 */
export function OverlapPanel() {
  // The run's spec once it started, else a class room's experiment (the presenter's page trains
  // nothing; its projector view has no experiment panel), else the experiment as edited (so the
  // panel is there before Start).
  // In a room of an overlap experiment, the room's: a seat that trains its level's pair alone runs
  // A and one partner, which alone is no overlap experiment, and its panel stays.
  const roomSpec = useLab((s) => s.room.info?.spec ?? null);
  const runSpec = useLab((s) => s.run.spec);
  const draft = useLab((s) => s.draft);
  const spec = roomSpec && isOverlapSpec(roomSpec) ? roomSpec : (runSpec ?? roomSpec ?? draft);
  const phase = useLab((s) => s.run.phase);
  const summary = useLab((s) => s.run.summary);
  const results = useLab(bandResults);
  const classRuns = useLab((s) => s.room.results.length > 0);
  // A class whose runs each train one partner: a pair's, or an unpaired seat's of a room of levels.
  const oneLevel = useLab((s) => s.room.results.length > 0 && s.room.info != null && runsByLevel(s.room.info));
  const pairs = useLab((s) => s.room.info?.pairing === true);
  // A paired room of the overlap experiment: each pair's run is its level's pair alone (A and one
  // partner, which may have no dial of its own, as S and T): it counts because the room's does.
  const roomOverlap = useLab((s) => s.room.results.length > 0 && isOverlapSpec(s.room.info?.spec ?? null));
  const { styles } = useRunView();
  const dots = useMemo(() => {
    const runs = results.filter((r) => r.finished && r.summary && (roomOverlap || isOverlapSpec(r.record.spec))).map((r) => ({ spec: r.record.spec, summary: r.summary! }));
    // This browser's own run, with its own spec (in a room: its seat's; the class's results hold it too, and a seed counts once).
    const own = runSpec ?? spec;
    if (phase === 'done' && summary && (isOverlapSpec(own) || isOverlapSpec(spec))) runs.push({ spec: own, summary });
    return overlapDots(runs);
  }, [results, phase, summary, spec, runSpec, roomOverlap]);
  if (!isOverlapSpec(spec)) return null;
  const arms = spec.arms.filter((a) => a.scheme === 'peer' && a.members.includes(spec.members[0].id)).map((a) => a.id);
  const colour = (arm: string) => styles.arm[arm] ?? '#666';
  // The ends RESULTS tests: the least overlapping same-family partner by design (the first level) and the most (the last).
  const anchor = spec.members[0];
  const partnerMember = (a: string) => spec.members.find((m) => m.id === spec.arms.find((x) => x.id === a)!.members.find((id) => id !== anchor.id));
  // Another shape than the anchor's: the cross-family partner, not a level of the dial.
  const isCross = (a: string) => {
    const p = partnerMember(a);
    return p != null && (p.family !== anchor.family || p.dModel !== anchor.dModel || p.window !== anchor.window || p.layers !== anchor.layers);
  };
  const levels = arms.filter((a) => !isCross(a));
  const least = levels[0] ?? null;
  const most = levels.at(-1) ?? null;
  const ends = least && most && least !== most ? endsContrast(dots, least, most) : null;
  // No run has both ends (a paired room: each pair trains one level): each end's mean over its runs, from different seeds.
  const apart = !ends && least && most && least !== most ? endsApart(dots, least, most) : null;
  const refEnds = least && most && least !== most ? endsContrast(OVERLAP_REFERENCE, least, most) : null;
  const partnerOf = (arm: string | null) => (arm ? spec.arms.find((x) => x.id === arm)?.members.find((m) => m !== spec.members[0].id) ?? arm : '');
  const seeds = new Set(dots.map((d) => d.seed)).size;
  return (
    <Panel
      id="overlap"
      title="Does a more different partner teach more?"
      wide
      intro={
        <p>
          Each peer arm pairs A with a partner whose errors overlap A's by a different amount. Every finished run adds one
          point per partner it trained{oneLevel ? ` (${pairs ? 'a pair' : 'a browser'} of the class trains one partner: one point)` : ''}: how much its errors overlapped A's before training (kappa, across) and how much A gained on
          held-out problems next to it (up). Grey: the lab's {OVERLAP_REFERENCE_BLOCK}. What they showed: A gained more next to
          its least overlapping partner than next to its most ({refEnds ? `${fmt(refEnds.mean)} on average, above 0 in ${refEnds.above} of ${refEnds.seeds} seeds` : 'see docs/RESULTS.md'});
          a steady fall over the five levels was not shown, so no line is drawn through the points.
        </p>
      }
    >
      <svg className="overlap-plot" data-testid="overlap-plot" data-points={dots.length} viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`A's gain against the partner's base kappa: ${dots.length} points from ${seeds} runs`} style={{ maxWidth: W, width: '100%' }}>
        <line x1={px(X0)} y1={py(0)} x2={px(X1)} y2={py(0)} stroke="#999" strokeDasharray="2 3" />
        <line x1={px(0)} y1={py(Y0)} x2={px(0)} y2={py(Y1)} stroke="#ccc" />
        <line x1={PAD.l} y1={H - PAD.b} x2={W - PAD.r} y2={H - PAD.b} stroke="#333" />
        <line x1={PAD.l} y1={PAD.t} x2={PAD.l} y2={H - PAD.b} stroke="#333" />
        {[-0.4, 0, 0.5, 1].map((k) => (
          <text key={`x${k}`} x={px(k)} y={H - PAD.b + 16} fontSize="13" textAnchor="middle">{k}</text>
        ))}
        {[-0.4, -0.2, 0, 0.2, 0.4, 0.6].map((g) => (
          <text key={`y${g}`} x={PAD.l - 4} y={py(g) + 3} fontSize="13" textAnchor="end">{fmt(g)}</text>
        ))}
        <text x={(PAD.l + W - PAD.r) / 2} y={H - 4} fontSize="14" textAnchor="middle">partner's base kappa with A (error overlap)</text>
        <text x={10} y={(PAD.t + H - PAD.b) / 2} fontSize="14" textAnchor="middle" transform={`rotate(-90 10 ${(PAD.t + H - PAD.b) / 2})`}>A's gain</text>
        {OVERLAP_REFERENCE.map((d, i) => (
          <circle key={`r${i}`} cx={px(d.kappa)} cy={py(d.gain)} r={2.5} fill="#bbb" />
        ))}
        {dots.map((d, i) => (
          <circle key={`d${i}`} cx={px(d.kappa)} cy={py(d.gain)} r={4.5} fill={colour(d.arm)} stroke="#fff" data-arm={d.arm}>
            <title>{`seed ${d.seed}, ${d.partner}: kappa ${d.kappa.toFixed(2)}, A's gain ${fmt(d.gain)}`}</title>
          </circle>
        ))}
      </svg>
      <p className="sub" data-testid="overlap-summary">
        {dots.length === 0
          ? 'No finished run yet: the points appear when a run of this experiment ends.'
          : `${dots.length} points from ${seeds} run${seeds === 1 ? '' : 's'}${
              ends
                ? `; A's gain next to ${partnerOf(least)} minus next to ${partnerOf(most)}: ${fmt(ends.mean)} on average, above 0 in ${ends.seeds === 1 ? 'the 1 run' : `${ends.above} of ${ends.seeds} runs`} (too few runs to tell from noise: the lab's 12 seeds are what showed it)`
                : apart
                  ? `; A's gain next to ${partnerOf(least)}: ${fmt(apart.least.mean)} (${runsWord(apart.least.runs)}), next to ${partnerOf(most)}: ${fmt(apart.most.mean)} (${runsWord(apart.most.runs)}), in different seeds (too few runs to tell from noise: the lab's 12 seeds are what showed the ends differ)`
                  : ''
            }.`}
      </p>
      <ul className="overlap-legend" style={{ display: 'flex', flexWrap: 'wrap', gap: '0.2rem 0.9rem', listStyle: 'none', paddingLeft: 0, margin: '0.3rem 0' }}>
        {arms.map((a) => {
          const partner = partnerOf(a);
          const cross = isCross(a);
          return (
            <li key={a} data-testid="overlap-legend-item" data-arm={a} data-colour={colour(a)}>
              <span aria-hidden="true" style={{ color: colour(a) }}>●</span> {partner}
              {cross ? ' (another shape)' : ''}
            </li>
          );
        })}
      </ul>
      {dots.length > 0 && (
        // Folded: one row per point runs below a 1080 px projector; the plot above carries them.
        <details className="table-scroll" data-testid="overlap-points">
          <summary>The points as a table</summary>
          <table data-testid="overlap-table">
            <caption>{classRuns ? `The class's points (a run per ${pairs ? 'pair' : 'browser'})` : "Your runs' points"}</caption>
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
        </details>
      )}
    </Panel>
  );
}
