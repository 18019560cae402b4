/**
 * n_vote > G (TTRL: 64 samples vote, 32 train; docs/METHOD.md, "Votes and rewards"): the votes
 * come from all n_vote samples of a prompt, the update and the trained-rollout metrics from the
 * first G; n_vote = G is today's step, bit for bit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { Rng } from '../random';
import { sampleRollouts, trainedSubset, type RolloutBatch } from '../rollout';
import { getTask, makeSplit } from '../tasks/index';
import { VOCAB_SIZE, encodePrompt } from '../tasks/tokenizer';
import { oracleRewards, pluralityVotes, type PluralityVote } from '../rewards/index';
import { pseudoLabelAccuracy, supervisionContainsTruth } from '../metrics/index';
import { useBackend } from '../testing/fixed-policy';
import { buildMember, type WarmMember } from './cohort';
import { createRun } from './runner';
import { layered, member } from './presets';
import { ballotRng, samplingRng } from './arm';
import { cohortStep, type CohortStepResult } from './step';
import { buildTrainingStacks, disposeTrainingStacks } from './stacks';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent, RunSummary } from './events';

const B = 4;
const G = 4;

function spec(voteSize: number, seed = 5): ExperimentSpec {
  const mlp = (id: string) => member({ id, family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 30, warmStartExamples: 200 });
  return layered({
    seed,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    warmStart: { batchSize: 32, learningRate: 5e-3 },
    members: [mlp('A'), mlp('B')],
    arms: [
      { id: 'self', scheme: 'self', members: ['A'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
      { id: 'teacher', scheme: 'teacher', members: ['B'], teacher: 'A' },
      { id: 'soft', scheme: 'self-soft', members: ['B'] },
    ],
    grpo: { promptsPerStep: B, groupSize: G, voteSize, learningRate: 1e-3 },
    steps: 2,
    evalEvery: 2,
  });
}

const mean = (xs: ArrayLike<number>) => Array.from(xs).reduce((a, x) => a + x, 0) / xs.length;

describe('one cohort step with n_vote = 2G on wasm', () => {
  const s = spec(2 * G);
  const task = getTask('digitsum');
  const root = new Rng(s.seed);
  const split = makeSplit(task, 3, root.child('split'), { warmStart: 200, rl: 200, heldOut: 8 });
  const maxNewTokens = task.maxCompletionLength(3) + 2;
  const maxLen = 1 + task.promptLength(3) + maxNewTokens;
  const problems = split.rl.slice(0, B);
  const truths = problems.map((p) => p.answer);
  const prompts = problems.map((p) => encodePrompt(p.prompt));
  const warm = new Map<string, WarmMember>();
  let tensorsBefore = 0;
  let tensorsAfter = -1;
  let result: CohortStepResult;
  /** What member `id` sampled at step 1 (n_vote = 2G per prompt), from its own stream, sampled again alone. */
  const voted = new Map<string, RolloutBatch>();

  beforeAll(async () => {
    await useBackend('wasm');
    const inputs = { spec: s, task, pool: split.warmStart, vocabSize: VOCAB_SIZE, maxLen, root };
    for (const m of s.members) warm.set(m.id, await buildMember(inputs, m));
    tensorsBefore = tf.memory().numTensors;
    for (const m of s.members) {
      const opts = { groupSize: 2 * G, temperature: s.grpo.temperature, maxNewTokens, rng: samplingRng(root, m.id, m.sampleSeed, 1) };
      voted.set(m.id, await sampleRollouts(warm.get(m.id)!.reference, prompts, task, 3, opts));
    }
    const a = s.members[0];
    const teacherRng = samplingRng(root, `teacher-${a.id}`, a.sampleSeed, 1);
    const opts = { groupSize: 2 * G, temperature: s.grpo.temperature, maxNewTokens, rng: teacherRng };
    voted.set('teacher-A', await sampleRollouts(warm.get('A')!.reference, prompts, task, 3, opts));
    const stacks = buildTrainingStacks(s, warm);
    result = await cohortStep(stacks, { step: 1, problems, root, spec: s, task, difficulty: 3, maxNewTokens, warm });
    disposeTrainingStacks(stacks);
    tensorsAfter = tf.memory().numTensors;
  }, 120_000);

  afterAll(() => {
    for (const w of warm.values()) w.reference.dispose();
  });

  const metrics = (armId: string, memberId: string) => result.arms.find((a) => a.armId === armId)!.members[memberId];
  const votesOf = (who: string, armId: string, voter = who) => pluralityVotes(voted.get(who)!.answers, B, ballotRng(root, armId, voter, 1));
  const voteStats = (votes: PluralityVote[]) => ({
    majorityRatio: mean(votes.map((v) => v.majorityRatio)),
    tieRate: votes.filter((v) => v.tied).length / votes.length,
  });

  it('the members answered something (the test measures real votes)', () => {
    const parseable = [...voted.values()].flatMap((r) => r.answers).filter((a) => a !== null).length;
    expect(parseable).toBeGreaterThan(2 * B * G);
  });

  it('trains on B*G rollouts per model and generates n_vote per prompt', () => {
    const slots = 5; // self A, peer A and B, teacher B, soft B
    expect(result.trained.rollouts).toBe(slots * B * G);
    const generated = ['A', 'A', 'B', 'B', 'B'].reduce((n, id) => n + mean(voted.get(id)!.lengths) * B * 2 * G, 0);
    expect(result.tokens).toBe(generated);
    const trained = ['A', 'A', 'B', 'B', 'B'].reduce((n, id) => n + mean(trainedSubset(voted.get(id)!, G).lengths) * B * G, 0);
    expect(result.trained.tokens).toBe(trained);
    for (const sample of result.samples) for (const m of sample.members) expect(m.completions).toHaveLength(G);
  });

  it('self: votes over all 2G samples; reward, oracle reward and length over the first G', () => {
    const votes = votesOf('A', 'self');
    const labels = votes.map((v) => v.label);
    const first = trainedSubset(voted.get('A')!, G);
    const m = metrics('self', 'A');
    expect({ majorityRatio: m.majorityRatio, tieRate: m.tieRate }).toEqual(voteStats(votes));
    expect(m.pseudoLabelAccuracy).toBe(pseudoLabelAccuracy(labels, truths));
    expect(m.supervisionContainsTruth).toBe(supervisionContainsTruth(voted.get('A')!.answers, truths));
    const rewards = first.answers.map((a, i) => (a !== null && a === labels[Math.floor(i / G)] ? 1 : 0));
    expect(m.reward).toBeCloseTo(mean(rewards), 12);
    expect(m.oracleReward).toBeCloseTo(mean(oracleRewards(first.answers, truths)), 12);
    expect(m.length).toBeCloseTo(mean(first.lengths), 12);
    // The 2G votes are not what the first G alone would say (else the test could not tell them apart).
    const alone = pluralityVotes(first.answers, B, ballotRng(root, 'self', 'A', 1));
    expect(voteStats(alone)).not.toEqual(voteStats(votes));
  });

  it("peer and teacher: the partner's and the frozen teacher's 2G votes; the member's own 2G votes for the mechanism", () => {
    const partner = votesOf('B', 'peer');
    expect(metrics('peer', 'A').majorityRatio).toBe(voteStats(partner).majorityRatio);
    expect(metrics('peer', 'A').pseudoLabelAccuracy).toBe(pseudoLabelAccuracy(partner.map((v) => v.label), truths));
    const own = votesOf('A', 'peer');
    expect(metrics('peer', 'A').ownVoteAccuracy).toBe(own.filter((v, b) => v.label === truths[b]).length / B);
    const teacher = votesOf('teacher-A', 'teacher');
    expect(metrics('teacher', 'B').majorityRatio).toBe(voteStats(teacher).majorityRatio);
    expect(metrics('teacher', 'B').supervisionContainsTruth).toBe(supervisionContainsTruth(voted.get('teacher-A')!.answers, truths));
  });

  it('self-soft: a trained answer is paid its share of the 2G own votes', () => {
    const votes = votesOf('B', 'soft');
    const all = voted.get('B')!.answers;
    const first = trainedSubset(voted.get('B')!, G).answers;
    const rewards = first.map((a, i) => {
      const b = Math.floor(i / G);
      if (a === null || votes[b].label === null) return 0;
      return all.slice(b * 2 * G, (b + 1) * 2 * G).filter((x) => x === a).length / votes[b].parseable;
    });
    expect(metrics('soft', 'B').reward).toBeCloseTo(mean(rewards), 6);
  });

  it('leaves no tensor behind', () => {
    expect(tensorsAfter).toBe(tensorsBefore);
  });
});

describe('runner with voteSize', () => {
  beforeAll(() => useBackend('wasm'));

  async function run(sp: ExperimentSpec): Promise<{ summary: RunSummary; steps: Extract<RunnerEvent, { type: 'step' }>[] }> {
    const r = createRun(sp);
    const events: RunnerEvent[] = [];
    for await (const e of r.events()) events.push(e);
    r.dispose();
    const done = events.find((e) => e.type === 'done');
    if (!done || done.type !== 'done') throw new Error('no done event');
    return { summary: { ...done.summary, medianStepMs: 0, backend: '' }, steps: events.filter((e) => e.type === 'step') };
  }

  it('voteSize = G is the run of voteSize 0, bit for bit; voteSize = 2G votes differently on B*G trained rollouts', async () => {
    const base = await run(spec(0, 8));
    const same = await run(spec(G, 8));
    expect({ ...same.summary, spec: null }).toEqual({ ...base.summary, spec: null });
    const more = await run(spec(2 * G, 8));
    const votes = (x: { summary: RunSummary }) =>
      x.summary.arms.flatMap((a) => a.members.flatMap((m) => m.history.map((h) => [h.majorityRatio, h.tieRate])));
    expect(votes(more)).not.toEqual(votes(base));
    for (const e of more.steps) for (const sample of e.samples) for (const m of sample.members) expect(m.completions).toHaveLength(G);
  }, 180_000);
});
