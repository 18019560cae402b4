import { useCallback } from 'react';
import { ChartCard } from '../charts/ChartCard';
import { REFERENCE_COLOR, baseLines, concat, constant, hasPseudoLabels, memberLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import type { RunSeries } from '../store/series';
import { MechanismCharts } from './MechanismCharts';
import { Panel } from './Panel';

export function PseudoLabelPanel() {
  const { series, base, styles } = useRunView();
  const lines = useCallback(
    (r: RunSeries) =>
      concat(
        memberLines(r, 'pseudoLabelAccuracy', styles, hasPseudoLabels),
        { series: [{ label: 'oracle 1.0', color: REFERENCE_COLOR, width: 1.5, reference: true }], ys: [constant(r.x, 1)] },
        baseLines(r.x, base, styles),
      ),
    [base, styles],
  );
  return (
    <Panel
      id="pseudo"
      title="1. Pseudo-label accuracy"
      wide
      intro={
        <p>
          How often the label a model is trained towards (its own or its peer's majority vote) is actually the right answer.
          The grey lines are each member's majority-vote accuracy before RL (base maj@G) and the oracle's 1.0. If a self arm's
          line sinks below its base line, the model is teaching itself wrong answers; a peer arm should stay at or above it.
        </p>
      }
    >
      <ChartCard testId="chart-pseudo" title="Pseudo-label accuracy per arm and member" yLabel="pseudo-label accuracy" axis="rate" build={lines} />
      <h3 className="section-title">Why a label helps or hurts, per arm</h3>
      <p className="panel-intro">
        Each arm's first chart sets the accuracy of the label a member is trained on (strong line) against the accuracy of its
        own majority vote (faint line). The second shows what the label does. Green, the rescue rate: of the prompts where the
        member's own vote is wrong, the share where the label is right. Orange, the mislead rate: where its own vote is right,
        the share where the label is wrong. Red, the shared-error rate: how often the label is wrong and is the very answer the
        member already gives, so it is paid for its own mistake. A peer helps where it rescues more than it misleads. Under
        self-reward the label is the member's own vote: it never rescues or misleads, and its shared-error rate is simply its
        own error rate.
      </p>
      <MechanismCharts run={series} styles={styles} />
    </Panel>
  );
}
