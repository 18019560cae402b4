import { useCallback } from 'react';
import { ChartCard } from '../charts/ChartCard';
import { baseLines, concat, ensembleLines, memberLines, untrainedPairLines } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import type { RunSeries } from '../store/series';
import { Panel } from './Panel';
import { GlossaryTerm } from '../GlossaryTerm';

export function AccuracyPanel() {
  const { base, baseKappa, styles, armMembers } = useRunView();
  const pass = useCallback((r: RunSeries) => concat(memberLines(r, 'evalPassAt1', styles), baseLines(r.x, base, styles, 'passAt1')), [base, styles]);
  const maj = useCallback(
    (r: RunSeries) =>
      concat(
        memberLines(r, 'evalMajAtG', styles),
        ensembleLines(r, styles),
        untrainedPairLines(r, baseKappa, styles, armMembers),
        baseLines(r.x, base, styles, 'majAtG'),
      ),
    [base, baseKappa, styles, armMembers],
  );
  return (
    <Panel
      id="accuracy"
      title="4. Held-out accuracy"
      wide
      intro={
        <p>
          The real score: accuracy on problems no model trains on, measured every few steps. <GlossaryTerm term="pass@1" /> is one
          sample's accuracy, <GlossaryTerm term="Majority vote (maj@G)">maj@G</GlossaryTerm> the accuracy of a majority vote over G samples. The oracle arm (trained on true answers) is the ceiling; the
          dotted ensemble line pools two members by majority vote, the fair control for "two models are better than one"; the
          thin dashed "untrained pair pooled" line is the same two members pooled before any training: the gap between the two
          is what training added to the pair.
        </p>
      }
    >
      <div className="multiples">
        <div className="small-multiple">
          <h3>pass@1</h3>
          <ChartCard testId="chart-pass1" title="Held-out pass@1 per arm and member" yLabel="held-out pass@1" axis="rate" build={pass} />
        </div>
        <div className="small-multiple">
          <h3>maj@G and the ensemble control</h3>
          <ChartCard testId="chart-majg" title="Held-out maj@G per arm and member, and the compute-matched ensemble" yLabel="held-out maj@G" axis="rate" build={maj} />
        </div>
      </div>
    </Panel>
  );
}
