import { useCallback } from 'react';
import { ChartCard } from '../charts/ChartCard';
import { disagreementLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import type { RunSeries } from '../store/series';
import { KappaGrid } from './KappaGrid';
import { Panel } from './Panel';
import { GlossaryTerm } from '../GlossaryTerm';

export function DisagreementPanel() {
  const { styles } = useRunView();
  const lines = useCallback((r: RunSeries) => disagreementLines(r, styles), [styles]);
  return (
    <Panel
      id="disagreement"
      title="2. Peer disagreement and error overlap"
      wide
      intro={
        <p>
          The line is how often two members' majority votes differ on the same prompt. Peer reward only helps while the peers
          sometimes disagree and make different mistakes: the table shows the overlap of their errors (<GlossaryTerm term="Cohen's kappa (κ)">kappa</GlossaryTerm>) before RL and now.
          Low kappa means one model can correct the other; a kappa near 1 means they fail together.
        </p>
      }
    >
      <div className="multiples">
        <div className="small-multiple">
          <ChartCard testId="chart-disagreement" title="Disagreement rate per arm and member pair" yLabel="disagreement rate" axis="rate" build={lines} />
        </div>
        <div className="small-multiple">
          <KappaGrid />
        </div>
      </div>
    </Panel>
  );
}
