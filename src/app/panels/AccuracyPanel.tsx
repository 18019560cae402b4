import { useMemo } from 'react';
import { UPlotChart } from '../charts/UPlotChart';
import { baseLines, concat, ensembleLines, memberLines, untrainedPairLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import { Panel } from './Panel';

export function AccuracyPanel() {
  const { version, series, base, baseKappa, styles, armMembers } = useRunView();
  const pass = useMemo(
    () => concat(memberLines(series, 'evalPassAt1', styles), baseLines(series.x, base, styles, 'passAt1')),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, version, base, styles],
  );
  const maj = useMemo(
    () =>
      concat(
        memberLines(series, 'evalMajAtG', styles),
        ensembleLines(series, styles),
        untrainedPairLines(series, baseKappa, styles, armMembers),
        baseLines(series.x, base, styles, 'majAtG'),
      ),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [series, version, base, baseKappa, styles, armMembers],
  );
  return (
    <Panel
      id="accuracy"
      title="4. Held-out accuracy"
      wide
      intro={
        <p>
          The real score: accuracy on problems no model trains on, measured every few steps. pass@1 is one sample's accuracy,
          maj@G the accuracy of a majority vote over G samples. The oracle arm (trained on true answers) is the ceiling; the
          dotted ensemble line pools two members by majority vote, the fair control for "two models are better than one"; the
          thin dashed "untrained pair pooled" line is the same two members pooled before any training: the gap between the two
          is what training added to the pair.
        </p>
      }
    >
      <div className="multiples">
        <div className="small-multiple">
          <h3>pass@1</h3>
          <UPlotChart testId="chart-pass1" title="Held-out pass@1 per arm and member" xLabel="RL step" yLabel="held-out pass@1" yRange={[0, 1]} series={pass.series} x={series.x} ys={pass.ys} version={version} />
        </div>
        <div className="small-multiple">
          <h3>maj@G and the ensemble control</h3>
          <UPlotChart testId="chart-majg" title="Held-out maj@G per arm and member, and the compute-matched ensemble" xLabel="RL step" yLabel="held-out maj@G" yRange={[0, 1]} series={maj.series} x={series.x} ys={maj.ys} version={version} />
        </div>
      </div>
    </Panel>
  );
}
