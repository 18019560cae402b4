import { useCallback } from 'react';
import { ArmHeading } from '../charts/ArmHeading';
import { ChartCard } from '../charts/ChartCard';
import { type CollapseLines, armCollapseLines, isIntrinsic, memberLines } from '../charts/seriesDefs';
import type { Styles } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import type { ArmSeries, RunSeries } from '../store/series';
import { Panel } from './Panel';
import { GlossaryTerm } from '../GlossaryTerm';

const NO_LINES: CollapseLines = { series: [], ys: [], bands: [] };

const INTRINSIC_REWARD: Record<string, string> = { entropy: 'minus the token entropy', certainty: 'the self-certainty' };

function ArmCollapseChart({ arm, styles }: { arm: ArmSeries; styles: Styles }) {
  const armId = arm.armId;
  // The same definition draws the live arm and the arm of that id in every compare layer.
  const build = useCallback((r: RunSeries) => {
    const a = r.arms.find((x) => x.armId === armId);
    return a ? armCollapseLines(a, styles) : NO_LINES;
  }, [armId, styles]);
  const intrinsic = isIntrinsic(arm.scheme);
  return (
    <div className="small-multiple">
      <ArmHeading armId={armId} scheme={arm.scheme} color={styles.arm[armId]} />
      <ChartCard
        testId={`chart-collapse-${armId}`}
        title={`Reward and correctness in arm ${armId}`}
        yLabel={intrinsic ? 'reward / correct' : 'rate'}
        axis={intrinsic ? 'auto' : 'rate'}
        build={build}
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

function DynamicsChart({ metric, styles, yLabel, testId }: { metric: 'entropy' | 'length'; styles: Styles; yLabel: string; testId: string }) {
  const build = useCallback((r: RunSeries) => memberLines(r, metric, styles), [metric, styles]);
  return (
    <div className="small-multiple">
      <h3>{metric === 'entropy' ? <>Token entropy, in <GlossaryTerm term="nat">nats</GlossaryTerm></> : 'Response length'}</h3>
      {/* Entropy from 0; lengths from 0 to the run's completion cap (axes.ts). */}
      <ChartCard testId={testId} title={metric === 'entropy' ? 'mean token entropy (nats)' : 'tokens per completion'} yLabel={yLabel} axis={metric === 'entropy' ? 'nonneg' : 'length'} build={build} height={200} />
    </div>
  );
}

export function CollapsePanel() {
  const { series, styles } = useRunView();
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
          <ArmCollapseChart key={arm.armId} arm={arm} styles={styles} />
        ))}
      </div>
      <div className="multiples">
        <DynamicsChart metric="entropy" styles={styles} yLabel="entropy (nats)" testId="chart-entropy" />
        <DynamicsChart metric="length" styles={styles} yLabel="tokens" testId="chart-length" />
      </div>
    </Panel>
  );
}
