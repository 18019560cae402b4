import { useMemo } from 'react';
import { UPlotChart } from '../charts/UPlotChart';
import { hasLabels, labelVsOwnVoteLines, mechanismRateLines } from '../charts/mechanismDefs';
import type { Styles } from '../charts/seriesDefs';
import type { ArmSeries, RunSeries } from '../store/series';

const NO_LABEL: Record<string, string> = {
  entropy: 'rewards low entropy',
  certainty: 'rewards self-certainty',
};

function ArmMechanism({ arm, styles, x, version }: { arm: ArmSeries; styles: Styles; x: number[]; version: number }) {
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const labels = useMemo(() => labelVsOwnVoteLines(arm, styles), [arm, styles, version]);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const rates = useMemo(() => mechanismRateLines(arm, styles), [arm, styles, version]);
  return (
    <div className="small-multiple" data-testid={`mechanism-${arm.armId}`}>
      <h3 style={{ color: styles.arm[arm.armId] }}>
        {arm.armId} <span className="sub">({arm.scheme})</span>
      </h3>
      <UPlotChart
        testId={`chart-mech-labels-${arm.armId}`}
        title={`Accuracy of the training label and of the member's own vote in arm ${arm.armId}`}
        xLabel="RL step"
        yLabel="accuracy"
        yRange={[0, 1]}
        series={labels.series}
        x={x}
        ys={labels.ys}
        version={version}
        height={170}
      />
      <UPlotChart
        testId={`chart-mech-rates-${arm.armId}`}
        title={`Rescue, mislead and shared-error rates in arm ${arm.armId}`}
        xLabel="RL step"
        yLabel="rate"
        yRange={[0, 1]}
        series={rates.series}
        x={x}
        ys={rates.ys}
        version={version}
        height={170}
      />
    </div>
  );
}

function NoLabels({ arm, styles }: { arm: ArmSeries; styles: Styles }) {
  return (
    <div className="small-multiple">
      <h3 style={{ color: styles.arm[arm.armId] }}>
        {arm.armId} <span className="sub">({arm.scheme})</span>
      </h3>
      <p className="empty" data-testid={`mechanism-none-${arm.armId}`}>
        No label to show: this arm {NO_LABEL[arm.scheme] ?? 'uses no label'}, so no answer is ever marked right or wrong for it,
        and there is nothing to rescue or to share.
      </p>
    </div>
  );
}

/** Small multiples of the mechanism, one per arm: labelled arms get two charts, the intrinsic arms a line of text. */
export function MechanismCharts({ run, styles, version }: { run: RunSeries; styles: Styles; version: number }) {
  return (
    <div className="multiples" data-testid="mechanism-multiples">
      {run.arms.length === 0 && <p className="empty">The mechanism charts appear with the first RL step, one per arm.</p>}
      {run.arms.map((arm) =>
        hasLabels(arm) ? (
          <ArmMechanism key={arm.armId} arm={arm} styles={styles} x={run.x} version={version} />
        ) : (
          <NoLabels key={arm.armId} arm={arm} styles={styles} />
        ),
      )}
    </div>
  );
}
