import { kappaColor } from '../lib/colors';
import { fmtFixed, fmtPercent } from '../lib/format';
import { useLab } from '../store';
import { lastValue, latestKappa } from '../store/series';

/**
 * Error overlap as an accessible table: one row per pair of members, one column for the base
 * (warm-started) models and one per arm now. Each cell shows Cohen's kappa of the two members'
 * per-prompt correctness, shaded from white (independent errors) to red (the same errors).
 */
export function KappaGrid() {
  useLab((s) => s.run.version); // the columns are mutated in place
  const baseKappa = useLab((s) => s.run.baseKappa);
  const series = useLab((s) => s.run.series);
  const armsWithPairs = series.arms.filter((a) => a.pairs.length > 0);
  const keys = new Map<string, { a: string; b: string }>();
  for (const p of baseKappa) keys.set(`${p.a}|${p.b}`, p);
  for (const arm of armsWithPairs) for (const p of arm.pairs) keys.set(`${p.a}|${p.b}`, p);
  const rows = [...keys.entries()];
  const cellCount = rows.length * (1 + armsWithPairs.length);

  if (rows.length === 0) {
    return (
      <p className="empty" data-testid="kappa-grid" data-cells={0}>
        The error-overlap table fills in after the warm start, when the base models are evaluated.
      </p>
    );
  }
  return (
    <div className="table-scroll">
      <table className="kappa-grid" data-testid="kappa-grid" data-cells={cellCount}>
        <caption>
          Cohen's kappa of correctness on held-out problems (batch problems where no held-out value exists yet, marked ᵇ).
          0 = errors independent, 1 = identical; the second number is how often both are wrong with the same answer.
        </caption>
        <thead>
          <tr>
            <th scope="col">pair</th>
            <th scope="col">base</th>
            {armsWithPairs.map((a) => (
              <th scope="col" key={a.armId}>
                {a.armId} now
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map(([key, { a, b }]) => {
            const base = baseKappa.find((p) => p.a === a && p.b === b);
            return (
              <tr key={key}>
                <th scope="row">
                  {a}–{b}
                </th>
                <td style={{ background: kappaColor(base?.kappa ?? null) }} data-kappa={base?.kappa ?? ''}>
                  {base ? (
                    <>
                      <span className="kappa">{fmtFixed(base.kappa)}</span> <span className="sub">{fmtPercent(base.bothWrongSame)}</span>
                    </>
                  ) : (
                    '—'
                  )}
                </td>
                {armsWithPairs.map((arm) => {
                  const pair = arm.pairs.find((p) => p.a === a && p.b === b);
                  const now = pair ? latestKappa(pair) : { kappa: null, source: null };
                  const wrong = pair ? (lastValue(pair.evalBothWrongSame) ?? lastValue(pair.bothWrongSame)) : null;
                  return (
                    <td key={arm.armId} style={{ background: kappaColor(now.kappa) }} data-kappa={now.kappa ?? ''}>
                      {pair ? (
                        <>
                          <span className="kappa">
                            {fmtFixed(now.kappa)}
                            {now.source === 'batch' ? 'ᵇ' : ''}
                          </span>{' '}
                          <span className="sub">{fmtPercent(wrong)}</span>
                        </>
                      ) : (
                        'not in arm'
                      )}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
