import { useMemo } from 'react';
import { UPlotChart } from '../charts/UPlotChart';
import { REFERENCE_COLOR, baseLines, concat, constant, hasPseudoLabels, memberLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import { Panel } from './Panel';

export function PseudoLabelPanel() {
  const { version, series, base, styles } = useRunView();
  const lines = useMemo(
    () =>
      concat(
        memberLines(series, 'pseudoLabelAccuracy', styles, hasPseudoLabels),
        { series: [{ label: 'oracle 1.0', color: REFERENCE_COLOR, width: 1.5, reference: true }], ys: [constant(series.x, 1)] },
        baseLines(series.x, base, styles),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, version, base, styles],
  );
  return (
    <Panel
      id="pseudo"
      title="1. Pseudo-label accuracy"
      intro={
        <p>
          How often the label a model is trained towards (its own or its peer's majority vote) is actually the right answer.
          The grey lines are each member's majority-vote accuracy before RL (base maj@G) and the oracle's 1.0. If a self arm's
          line sinks below its base line, the model is teaching itself wrong answers; a peer arm should stay at or above it.
        </p>
      }
    >
      <UPlotChart
        testId="chart-pseudo"
        title="Pseudo-label accuracy per arm and member"
        xLabel="RL step"
        yLabel="pseudo-label accuracy"
        yRange={[0, 1.05]}
        series={lines.series}
        x={series.x}
        ys={lines.ys}
        version={version}
      />
    </Panel>
  );
}
