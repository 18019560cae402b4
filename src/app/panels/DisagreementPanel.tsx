import { useMemo } from 'react';
import { UPlotChart } from '../charts/UPlotChart';
import { disagreementLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import { KappaGrid } from './KappaGrid';
import { Panel } from './Panel';

export function DisagreementPanel() {
  const { version, series, styles } = useRunView();
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const lines = useMemo(() => disagreementLines(series, styles), [series, version, styles]);
  return (
    <Panel
      id="disagreement"
      title="2. Peer disagreement and error overlap"
      wide
      intro={
        <p>
          The line is how often two members' majority votes differ on the same prompt. Peer reward only helps while the peers
          sometimes disagree and make different mistakes: the table shows the overlap of their errors (kappa) before RL and now.
          Low kappa means one model can correct the other; a kappa near 1 means they fail together.
        </p>
      }
    >
      <div className="multiples">
        <div className="small-multiple">
          <UPlotChart
            testId="chart-disagreement"
            title="Disagreement rate per arm and member pair"
            xLabel="RL step"
            yLabel="disagreement rate"
            yRange={[0, 1]}
            series={lines.series}
            x={series.x}
            ys={lines.ys}
            version={version}
          />
        </div>
        <div className="small-multiple">
          <KappaGrid />
        </div>
      </div>
    </Panel>
  );
}
