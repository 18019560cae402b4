import { useMemo } from 'react';
import { UPlotChart, type SeriesDef } from '../charts/UPlotChart';
import { memberLines } from '../charts/seriesDefs';
import type { Styles } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import { withAlpha } from '../lib/colors';
import type { ArmSeries, Column, RunSeries } from '../store/series';
import { Panel } from './Panel';

/** The colour of "what is actually correct" in every collapse chart. */
export const TRUTH_COLOR = '#2ca02c';

function armCollapseLines(arm: ArmSeries, styles: Styles) {
  const series: SeriesDef[] = [];
  const ys: Column[] = [];
  const bands: { upper: number; lower: number; fill: string }[] = [];
  const color = styles.arm[arm.armId] ?? '#888';
  for (const id of arm.memberIds) {
    const m = arm.members[id];
    const dash = styles.dash[id] ?? [];
    const reward = series.length;
    series.push({ label: `reward · ${id}`, color, dash });
    ys.push(m.reward);
    const correct = series.length;
    series.push({ label: `correct (batch) · ${id}`, color: TRUTH_COLOR, dash, width: 1.25 });
    ys.push(m.oracleReward);
    series.push({ label: `held-out pass@1 · ${id}`, color: TRUTH_COLOR, dash, width: 2.5, points: true, spanGaps: true });
    ys.push(m.evalPassAt1);
    // Shaded where the label-free reward exceeds what is actually correct: the hacking gap.
    bands.push({ upper: reward, lower: correct, fill: withAlpha(color, 0.22) });
  }
  return { series, ys, bands };
}

function ArmCollapseChart({ arm, styles, x, version }: { arm: ArmSeries; styles: Styles; x: number[]; version: number }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => armCollapseLines(arm, styles), [arm, styles, version]);
  return (
    <div className="small-multiple">
      <h3 style={{ color: styles.arm[arm.armId] }}>
        {arm.armId} <span className="sub">({arm.scheme})</span>
      </h3>
      <UPlotChart
        testId={`chart-collapse-${arm.armId}`}
        title={`Reward and correctness in arm ${arm.armId}`}
        xLabel="RL step"
        yLabel={arm.scheme === 'entropy' || arm.scheme === 'certainty' ? 'reward / correct' : 'rate'}
        series={lines.series}
        x={x}
        ys={lines.ys}
        bands={lines.bands}
        version={version}
        height={200}
      />
    </div>
  );
}

function DynamicsChart({ run, metric, styles, version, yLabel, testId }: { run: RunSeries; metric: 'entropy' | 'length'; styles: Styles; version: number; yLabel: string; testId: string }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => memberLines(run, metric, styles), [run, metric, styles, version]);
  return (
    <div className="small-multiple">
      <h3>{metric === 'entropy' ? 'Token entropy' : 'Response length'}</h3>
      <UPlotChart testId={testId} title={yLabel} xLabel="RL step" yLabel={yLabel} series={lines.series} x={run.x} ys={lines.ys} version={version} height={200} />
    </div>
  );
}

export function CollapsePanel() {
  const { version, series, styles } = useRunView();
  return (
    <Panel
      id="collapse"
      title="3. Reward collapse"
      wide
      intro={
        <p>
          Each arm's label-free reward (its colour) against what is actually correct (green: the training batch, and with dots
          held-out pass@1). The shaded band is the hacking gap: reward the model earns for answers that are wrong. Collapse
          looks like the reward climbing to 1 while the green falls, with entropy dropping to 0 and lengths going strange.
        </p>
      }
    >
      <div className="multiples" data-testid="collapse-multiples">
        {series.arms.length === 0 && <p className="empty">Charts appear with the first RL step, one per arm.</p>}
        {series.arms.map((arm) => (
          <ArmCollapseChart key={arm.armId} arm={arm} styles={styles} x={series.x} version={version} />
        ))}
      </div>
      <div className="multiples">
        <DynamicsChart run={series} metric="entropy" styles={styles} version={version} yLabel="mean token entropy (nats)" testId="chart-entropy" />
        <DynamicsChart run={series} metric="length" styles={styles} version={version} yLabel="tokens per completion" testId="chart-length" />
      </div>
    </Panel>
  );
}
