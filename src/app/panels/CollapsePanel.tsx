import { useMemo } from 'react';
import { UPlotChart } from '../charts/UPlotChart';
import { armCollapseLines, isIntrinsic, memberLines } from '../charts/seriesDefs';
import type { Styles } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import type { ArmSeries, RunSeries } from '../store/series';
import { Panel } from './Panel';

const INTRINSIC_REWARD: Record<string, string> = { entropy: 'minus the token entropy', certainty: 'the self-certainty' };

function ArmCollapseChart({ arm, styles, x, version }: { arm: ArmSeries; styles: Styles; x: number[]; version: number }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => armCollapseLines(arm, styles), [arm, styles, version]);
  const intrinsic = isIntrinsic(arm.scheme);
  return (
    <div className="small-multiple">
      <h3 style={{ color: styles.arm[arm.armId] }}>
        {arm.armId} <span className="sub">({arm.scheme})</span>
      </h3>
      <UPlotChart
        testId={`chart-collapse-${arm.armId}`}
        title={`Reward and correctness in arm ${arm.armId}`}
        xLabel="RL step"
        yLabel={intrinsic ? 'reward / correct' : 'rate'}
        series={lines.series}
        x={x}
        ys={lines.ys}
        bands={lines.bands}
        version={version}
        height={200}
      />
      {intrinsic && (
        <p className="chart-note" data-testid={`collapse-note-${arm.armId}`}>
          No hacking-gap band: this reward is {INTRINSIC_REWARD[arm.scheme]}, not a 0–1 match with a label, so it cannot be set
          against the share of correct answers.
        </p>
      )}
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
          held-out pass@1). For rewards that pay for matching a label (a vote or the truth), the shaded band is the hacking gap:
          reward the model earns for answers that are wrong. Collapse looks like the reward climbing to 1 while the green falls,
          with entropy dropping to 0 and lengths going strange. Entropy and self-certainty rewards are not label matches (their
          scale is not 0 to 1), so their charts have no band: watch whether their reward rises while the green does not.
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
