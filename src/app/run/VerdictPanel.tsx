/**
 * Above the hero charts: the verdict on the question over a block of seeds (an own task's Start,
 * or "Run N seeds"), read by the lab's rule (core/experiment/verdict.ts), and the sentence a
 * student can pass on. While the block trains it says which seed is running and that one seed is
 * an example; once the block has ended, the verdict, or "cannot tell" with what was measured and
 * what would help. In a class room the projector shows the same over the class's finished runs.
 */
import { useMemo } from 'react';
import { VERDICT_SEEDS, friendSentence, intervalText, type QuestionVerdict, type VerdictPart } from '../../core/experiment/verdict';
import { useLab } from '../store';
import { verdictOfResults } from './verdictOnPage';

const PART_NAMES: Record<VerdictPart['id'], string> = {
  truth: 'The oracle (rewarded with the true answers), end − start',
  self: 'Self-reward, end − start',
  peer: "A peer's vote, end − start",
  peerOverSelf: 'Peer against self, at the end',
};

const VERDICT_WORDS: Record<VerdictPart['verdict'], string> = { shown: 'shown', 'not shown': 'not shown', contradicted: 'contradicted' };

export function VerdictView({ verdict, unit = 'seed' }: { verdict: QuestionVerdict; unit?: string }) {
  const sentence = friendSentence(verdict);
  const state = verdict.canTell ? 'verdict' : 'cannot-tell';
  return (
    <div className="verdict-body" data-testid="verdict-body" data-state={state} data-seeds={verdict.seeds.length}>
      <p className="verdict-sentence" data-testid="friend-sentence">
        <strong>{verdict.canTell ? 'Verdict: ' : 'Cannot tell: '}</strong>
        {sentence}
      </p>
      {verdict.parts.length > 0 && verdict.seeds.length >= 2 && (
        <ul className="verdict-parts" aria-label={`Each difference over the ${unit}s`}>
          {verdict.parts.map((p) => (
            <li key={p.id} data-testid={`verdict-part-${p.id}`} data-verdict={p.verdict}>
              {PART_NAMES[p.id]}: <strong>{VERDICT_WORDS[p.verdict]}</strong> {intervalText(p.stats)}
              {p.stats.verdict !== p.verdict ? ` (${p.stats.verdict} on its own, ${p.verdict} read with the others: Holm)` : ''}
            </li>
          ))}
        </ul>
      )}
      <p className="sub verdict-key">
        Each number is the mean over the {unit}s of a paired difference of held-out pass@1 (the same {unit}'s arms), with its 95% interval: shown where the interval lies above 0, contradicted where below, not shown where it holds 0, read with the other differences (Holm). Without an oracle that learnt, the lab says nothing of self or peer.
      </p>
    </div>
  );
}

export function VerdictPanel() {
  const plan = useLab((s) => s.seeds.plan);
  const results = useLab((s) => s.seeds.results);
  const stopped = useLab((s) => s.seeds.stopped);
  const draftOwn = useLab((s) => s.draft.task.id === 'custom');
  const runSpec = useLab((s) => s.run.spec);
  const spec = results[0]?.record.spec ?? runSpec;
  const verdict = useMemo(() => (spec ? verdictOfResults(spec, results, stopped ? [stopped] : []) : null), [spec, results, stopped]);
  if (!spec || !verdict) return null;
  if (!plan && results.length === 0 && !(stopped && draftOwn)) return null;
  return (
    <section className="verdict" aria-labelledby="verdict-title" data-testid="verdict" data-state={plan ? 'running' : verdict.canTell ? 'verdict' : 'cannot-tell'}>
      <h3 id="verdict-title">Your question, over {plan ? plan.count : results.length} seeds</h3>
      {plan ? (
        <p data-testid="verdict-progress" role="status">
          Seed {plan.index + 1} of {plan.count} training ({results.length} done). One seed is an example, not evidence: the verdict is read over all {plan.count} by the lab's rule
          {plan.count === VERDICT_SEEDS && spec.task.id === 'custom' ? ', and a task of your own always runs such a block' : ''}.
        </p>
      ) : (
        <VerdictView verdict={verdict} />
      )}
    </section>
  );
}

/**
 * The projector's: the class's verdict on its own question, over the browsers whose runs have
 * finished (one seed a seat; a run still training is not read). A room of the built-in presets or a
 * paired room (each pair trains only the peer arm: no oracle to read) shows none.
 */
export function ClassVerdict() {
  const info = useLab((s) => s.room.info);
  const results = useLab((s) => s.room.results);
  const own = info != null && !info.pairing && info.spec.task.id === 'custom';
  const verdict = useMemo(() => (own && info ? verdictOfResults(info.spec, results, []) : null), [own, info, results]);
  if (!own || !verdict) return null;
  const finished = verdict.seeds.length;
  const running = results.length - finished;
  return (
    <section className="verdict verdict-class" aria-labelledby="class-verdict-title" data-testid="class-verdict" data-state={finished < 2 ? 'running' : verdict.canTell ? 'verdict' : 'cannot-tell'} data-runs={finished}>
      <h3 id="class-verdict-title">
        The class's verdict on "{verdict.question}": {finished} browser{finished === 1 ? '' : 's'} finished{running > 0 ? `, ${running} still training` : ''}
      </h3>
      {finished < 2 ? (
        <p data-testid="class-verdict-progress" role="status">
          Each browser trains the question with its own seed; the verdict is read once two runs or more have finished, and grows firmer with every one.
        </p>
      ) : (
        <VerdictView verdict={verdict} unit="browser" />
      )}
    </section>
  );
}
