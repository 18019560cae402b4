/**
 * The scoreboard above the panels, large enough to read from the back of a room: per arm, the
 * held-out pass@1 at the start and now with the change, the latest reward, and whether a member
 * collapsed (scoreboard.ts has the numbers; they are the charts' last values, averaged over the
 * arm's members). The "Report PNG" button saves it with every chart as one image.
 */
import { useMemo, useState } from 'react';
import { useRunView } from '../charts/useRunView';
import { useLab } from '../store';
import { downloadReportPng } from './reportPng';
import { pageVerdictSentence } from './verdictOnPage';
import { changeDirection, collapseDefinition, collapsedText, fmt2, fmtSigned, scoreRows, seedMeanRows, type SeedMeanRow } from './scoreboard';
import { bandResults, bandUnit } from '../store/roomSlice';
import type { Styles } from '../charts/seriesDefs';
import type { SeedUnit } from '../charts/seedAggregate';

/** "Run N seeds": the scoreboard over the seeds' mean first (the claims cover all seeds, so must the scores). */
function SeedMeanTable({ rows, styles, unit, short = false }: { rows: SeedMeanRow[]; styles: Styles; unit: SeedUnit; short?: boolean }) {
  const n = rows.reduce((m, r) => Math.max(m, r.seeds), 0);
  // A paired class room of several partner levels: each pair trained one arm, and each row is over its own runs.
  const each = rows.some((r) => r.seeds !== n) ? `; each arm over the ${unit}s that trained it (the collapsed column counts them)` : '';
  // A class still training: its last values are where each run is now, not its end.
  const training = useLab((s) => s.room.results.some((r) => !r.finished));
  const last = training ? 'now' : 'end';
  return (
    <div className="table-scroll">
      <table className="scoreboard-table" data-testid="scoreboard-mean" data-seeds={n}>
        {short ? (
          <caption>
            Mean over {n} {unit}
            {n === 1 ? '' : 's'} of held-out pass@1{unit !== 'seed' ? '; runs still training count as they are so far' : ''}
            {each}.
          </caption>
        ) : (
          <caption>
            Mean over {n} {unit}s: held-out pass@1 at the start and at the end, the change, the last reward, and in how many {unit}s a member collapsed
            {unit !== 'seed' ? ' (runs still training count as they are so far)' : ''}
            {each}.
          </caption>
        )}
        <thead>
          <tr>
            <th scope="col">arm</th>
            <th scope="col">{short ? 'start' : 'pass@1 start'}</th>
            <th scope="col" data-testid="scoreboard-mean-last">{short ? last : `pass@1 ${last}`}</th>
            <th scope="col">change</th>
            {!short && <th scope="col">reward</th>}
            <th scope="col">collapsed</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.armId} data-testid={`score-mean-${r.armId}`} data-now={r.now ?? ''} data-change={r.change ?? ''} data-collapsed-in={r.collapsedIn}>
              <th scope="row">
                <span className="arm-id">
                  <span className="arm-swatch" style={{ background: styles.arm[r.armId] }} aria-hidden="true" />
                  {r.armId}
                </span>
                {short ? '' : ' '}
                {short ? null : <span className="sub">({r.scheme})</span>}
              </th>
              <td className="num" data-label="pass@1 start">{fmt2(r.start)}</td>
              <td className="num" data-label={`pass@1 ${last}`}>{fmt2(r.now)}</td>
              <td className={`num change ${changeDirection(r.change) ?? ''}`} data-label="change">
                {fmtSigned(r.change)}
              </td>
              {!short && (
                <td className="num" data-label="reward">
                  {fmt2(r.reward)}
                </td>
              )}
              <td data-label="collapsed">{short ? `${r.collapsedIn} of ${r.seeds}` : `in ${r.collapsedIn} of ${r.seeds} ${unit}s`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * `classOnly`: the projector view's (ProjectorView.tsx): the class's means alone, from one run on
 * (not this browser's own run, which in a presenter's projector view is nothing, and
 * an empty "This run" table of dashes beside the class's would say nothing).
 */
export function Scoreboard({ classOnly = false }: { classOnly?: boolean }) {
  const { version, series, base, styles, spec } = useRunView();
  const summary = useLab((s) => s.run.summary);
  const step = useLab((s) => s.run.step);
  const backend = useLab((s) => s.engine.report?.backend ?? null);
  const presetId = useLab((s) => s.presetId);
  const edited = useLab((s) => s.edited);
  const [saving, setSaving] = useState(false);
  const rows = useMemo(
    () => scoreRows(spec.arms, series, base, summary),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version: the series grow in place (series.ts), version says when
    [spec, series, base, summary, version],
  );
  const seedResults = useLab(bandResults);
  const unit = useLab(bandUnit);
  const meanRows = useMemo(
    () =>
      seedResults.length >= (classOnly ? 1 : 2)
        ? seedMeanRows(
            // Each result carries its base and summary: nothing is replayed here (a class of 60 is rebuilt every second).
            seedResults.map((r) => scoreRows(r.record.spec.arms, r.series, r.base, r.summary)),
          )
        : [],
    [seedResults, classOnly],
  );
  const delta = spec.collapseDelta ?? 0.1;
  const definition = collapseDefinition(delta);

  const saveReport = async () => {
    setSaving(true);
    try {
      await downloadReportPng(
        {
          title: `Cohort Lab: ${presetId}${edited ? ' (edited)' : ''}`,
          subtitle: `seed ${spec.seed} · RL step ${step ?? 0} of ${spec.steps}${backend ? ` · ${backend}` : ''} · pass@1: held-out, mean over each arm's members`,
          collapseDelta: delta,
          verdict: pageVerdictSentence(useLab.getState()),
        },
        rows,
      );
    } finally {
      setSaving(false);
    }
  };

  if (classOnly) {
    return (
      <section className="panel panel-wide scoreboard scoreboard-class" aria-labelledby="scoreboard-title" data-testid="scoreboard" data-class="true">
        <h2 id="scoreboard-title">Class scoreboard</h2>
        {meanRows.length > 0 ? <SeedMeanTable rows={meanRows} styles={styles} unit={unit} short /> : <p data-testid="scoreboard-waiting">The class's numbers come with its first RL steps.</p>}
      </section>
    );
  }

  return (
    <section className="panel panel-wide scoreboard" aria-labelledby="scoreboard-title" data-testid="scoreboard" data-seed={spec.seed}>
      <div className="scoreboard-head">
        <h2 id="scoreboard-title">Scoreboard</h2>
        <button type="button" data-testid="report-png" aria-label="Download report PNG: the scoreboard and every chart" disabled={saving} onClick={() => void saveReport()}>
          {saving ? 'Saving…' : 'Report PNG'}
        </button>
      </div>
      {meanRows.length > 0 && (
        <>
          <SeedMeanTable rows={meanRows} styles={styles} unit={unit} />
          <h3 className="scoreboard-this-run">This run (seed {spec.seed})</h3>
        </>
      )}
      <div className="table-scroll">
        <table className={`scoreboard-table${meanRows.length ? ' secondary' : ''}`}>
          <caption>
            Held-out pass@1 is the accuracy of one sample on problems no model trains on, averaged over the arm's members: at the
            start (the warm-started models) and at the latest evaluation. Reward: the arm's label-free reward at the latest step.
          </caption>
          <thead>
            <tr>
              <th scope="col">arm</th>
              <th scope="col">pass@1 start</th>
              <th scope="col">pass@1 now</th>
              <th scope="col">change</th>
              <th scope="col">reward</th>
              <th scope="col" title={definition}>
                collapsed<span aria-hidden="true">*</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr
                key={r.armId}
                data-testid={`score-${r.armId}`}
                data-start={r.start ?? ''}
                data-now={r.now ?? ''}
                data-change={r.change ?? ''}
                data-reward={r.reward ?? ''}
                data-collapsed={r.collapsed == null ? '' : r.collapsed.length > 0 ? 'yes' : 'no'}
              >
                <th scope="row">
                  <span className="arm-id">
                    <span className="arm-swatch" style={{ background: styles.arm[r.armId] }} aria-hidden="true" />
                    {r.armId}
                  </span>{' '}
                  <span className="sub">({r.scheme}; {r.memberIds.join(', ')})</span>
                </th>
                <td className="num" data-testid={`score-${r.armId}-start`} data-label="pass@1 start">{fmt2(r.start)}</td>
                <td className="num" data-testid={`score-${r.armId}-now`} data-label="pass@1 now">{fmt2(r.now)}</td>
                <td className={`num change ${changeDirection(r.change) ?? ''}`} data-testid={`score-${r.armId}-change`} data-label="change">
                  {fmtSigned(r.change)}
                </td>
                <td className="num" data-testid={`score-${r.armId}-reward`} data-label="reward">{fmt2(r.reward)}</td>
                <td data-testid={`score-${r.armId}-collapsed`} data-label="collapsed">{collapsedText(r)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="scoreboard-note" data-testid="collapse-definition">
        <span aria-hidden="true">*</span> {definition}
      </p>
    </section>
  );
}
