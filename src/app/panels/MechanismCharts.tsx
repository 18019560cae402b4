import { useCallback } from 'react';
import { ArmHeading } from '../charts/ArmHeading';
import { ChartCard } from '../charts/ChartCard';
import { hasLabels, labelVsOwnVoteLines, mechanismRateLines } from '../charts/mechanismDefs';
import { type ChartLines, type Styles, empty } from '../charts/seriesDefs';
import type { ArmSeries, RunSeries } from '../store/series';

const NO_LABEL: Record<string, string> = {
  entropy: 'rewards low entropy',
  certainty: 'rewards self-certainty',
};

/** One arm's lines in any run (live or compare layer); none where that run has no such arm. */
function forArm(armId: string, lines: (arm: ArmSeries) => ChartLines) {
  return (r: RunSeries) => {
    const a = r.arms.find((x) => x.armId === armId);
    return a && hasLabels(a) ? lines(a) : empty();
  };
}

function ArmMechanism({ arm, styles }: { arm: ArmSeries; styles: Styles }) {
  const armId = arm.armId;
  const labels = useCallback((r: RunSeries) => forArm(armId, (a) => labelVsOwnVoteLines(a, styles))(r), [armId, styles]);
  const rates = useCallback((r: RunSeries) => forArm(armId, (a) => mechanismRateLines(a, styles))(r), [armId, styles]);
  return (
    <div className="small-multiple" data-testid={`mechanism-${armId}`}>
      <ArmHeading armId={armId} scheme={arm.scheme} color={styles.arm[armId]} />
      <ChartCard
        testId={`chart-mech-labels-${armId}`}
        title={`Accuracy of the training label and of the member's own vote in arm ${armId}`}
        yLabel="accuracy"
        axis="rate"
        build={labels}
        height={170}
      />
      <ChartCard testId={`chart-mech-rates-${armId}`} title={`Rescue, mislead and shared-error rates in arm ${armId}`} yLabel="rate" axis="rate" build={rates} height={170} />
    </div>
  );
}

function NoLabels({ arm, styles }: { arm: ArmSeries; styles: Styles }) {
  return (
    <div className="small-multiple">
      <ArmHeading armId={arm.armId} scheme={arm.scheme} color={styles.arm[arm.armId]} />
      <p className="empty" data-testid={`mechanism-none-${arm.armId}`}>
        No label to show: this arm {NO_LABEL[arm.scheme] ?? 'uses no label'}, so no answer is ever marked right or wrong for it,
        and there is nothing to rescue or to share.
      </p>
    </div>
  );
}

/** Small multiples of the mechanism, one per arm: labelled arms get two charts, the intrinsic arms a line of text. */
export function MechanismCharts({ run, styles }: { run: RunSeries; styles: Styles }) {
  return (
    <div className="multiples" data-testid="mechanism-multiples">
      {run.arms.length === 0 && <p className="empty">The mechanism charts appear with the first RL step, one per arm.</p>}
      {run.arms.map((arm) =>
        hasLabels(arm) ? (
          <ArmMechanism key={arm.armId} arm={arm} styles={styles} />
        ) : (
          <NoLabels key={arm.armId} arm={arm} styles={styles} />
        ),
      )}
    </div>
  );
}
