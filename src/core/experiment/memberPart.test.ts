/**
 * A peer arm across two browsers (memberParts.ts, memberStep.ts), in one process on wasm: the two
 * member parts, run concurrently and exchanging through an in-memory room, merged, equal the
 * one-browser run of the pair bit for bit; a part checkpointed (and stopped mid-wait) resumes
 * exactly; a malformed partner reply stops the run with words saying what was wrong.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { createRun, type Checkpoint, type ExperimentRun } from './runner';
import { layered, member } from './presets';
import { checkedAnswers, mergeMemberBases, mergeMemberSteps, pairSpec, pairedPeerArm, type AnswerExchange, type ExchangeKind } from './memberParts';
import { emptySummary, foldEvent } from './summary';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent, RunSummary } from './events';
import type { Answer } from '../rewards/vote';
import { useBackend } from '../testing/fixed-policy';
import { memoryWarmStartCache } from './warmStartCache';

/** Low enough that the clip engages (the test checks it): clipping is per model in a stack. */
const MAX_GRAD_NORM = 0.05;

/**
 * Two same-shape MLPs (one stack of two in the one-browser run, a stack of one in each part: one
 * loss summed over the stack's models, a gradient norm and clip per model, Adam elementwise), a
 * third member and a self arm the pair's parts never build, n_vote > G, KL, two updates per batch,
 * gradient clipping, an evaluation step and the last step evaluated.
 */
function spec(steps = 3): ExperimentSpec {
  // 150 warm-start steps: enough for parseable answers, ties and disagreements (pass@1 about 0.15).
  const mlp = (id: string) => member({ id, family: 'mlp', dModel: 16, layers: 2, window: 4, warmStartSteps: 150, warmStartExamples: 200 });
  return layered({
    seed: 21,
    task: { id: 'digitsum', difficulty: 3 },
    data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
    members: [mlp('C'), mlp('B'), mlp('A')],
    arms: [
      { id: 'self', scheme: 'self', members: ['C'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    grpo: { promptsPerStep: 3, groupSize: 4, voteSize: 6, learningRate: 3e-3, beta: 0.05, updatesPerBatch: 2, maxGradNorm: MAX_GRAD_NORM },
    steps,
    evalEvery: 2,
  });
}

/** Timings aside, the events as numbers. */
const timeless = (e: RunnerEvent) => (e.type === 'step' ? { ...e, stepMs: 0 } : e);
const science = (s: RunSummary) => ({ ...s, medianStepMs: 0 });

/**
 * The room as the engine sees it: each member's answers kept by step and kind until asked for
 * (a member asking again gets them again); a member that sends other answers for a step it sent
 * before is an error (a resumed part must repeat itself exactly).
 */
function room() {
  const sent = new Map<string, Answer[][]>();
  const waiting = new Map<string, (a: Answer[][]) => void>();
  const calls: string[] = [];
  const key = (m: string, step: number, kind: ExchangeKind) => `${m} ${step} ${kind}`;
  const exchange = (me: string, partner: string): AnswerExchange => async (step, kind, answers) => {
    calls.push(key(me, step, kind));
    const mine = key(me, step, kind);
    const before = sent.get(mine);
    if (before && JSON.stringify(before) !== JSON.stringify(answers)) throw new Error(`${mine}: sent other answers than before`);
    sent.set(mine, structuredClone(answers));
    waiting.get(mine)?.(structuredClone(answers));
    waiting.delete(mine);
    const theirs = sent.get(key(partner, step, kind));
    return theirs ? structuredClone(theirs) : new Promise((resolve) => waiting.set(key(partner, step, kind), resolve));
  };
  return { exchange, calls };
}

async function drain(run: ExperimentRun, stopAt?: number): Promise<{ events: RunnerEvent[]; cp?: Checkpoint }> {
  const events: RunnerEvent[] = [];
  let cp: Checkpoint | undefined;
  try {
    for await (const e of run.events()) {
      events.push(e);
      if (e.type === 'step' && e.step === stopAt) {
        cp = await run.checkpoint();
        break;
      }
    }
  } finally {
    run.dispose();
  }
  return { events, cp };
}

/** The two parts' events merged as the presenter merges them: base, steps, and the summary folded from them. */
function merged(s: ExperimentSpec, a: RunnerEvent[], b: RunnerEvent[]): { events: RunnerEvent[]; summary: RunSummary } {
  const only = (evs: RunnerEvent[], type: string) => evs.filter((e) => e.type === type);
  const one = pairSpec(s, 'peer');
  const base = mergeMemberBases(s, 'peer', [...only(a, 'base'), ...only(b, 'base')] as Extract<RunnerEvent, { type: 'base' }>[]);
  const stepsA = only(a, 'step') as Extract<RunnerEvent, { type: 'step' }>[];
  const stepsB = only(b, 'step') as Extract<RunnerEvent, { type: 'step' }>[];
  expect(stepsA.map((e) => e.step)).toEqual(stepsB.map((e) => e.step));
  const steps = stepsA.map((e, k) => mergeMemberSteps(s, 'peer', [stepsB[k], e], 0));
  const summary = emptySummary(one, 'wasm');
  for (const e of [base, ...steps]) foldEvent(summary, e, one);
  return { events: [base, ...steps], summary };
}

describe('a peer arm across two browsers (wasm)', () => {
  beforeAll(() => useBackend('wasm'));
  let single: RunnerEvent[];

  beforeAll(async () => {
    single = (await drain(createRun(pairSpec(spec(), 'peer')))).events.filter((e) => e.type !== 'warmstart');
  });

  it('two member parts exchanging answers equal the one-browser run of the pair, bit for bit', async () => {
    const s = spec();
    expect(pairedPeerArm(s)?.id).toBe('peer');
    const before = tf.memory().numTensors;
    const r = room();
    const part = (me: string, partner: string) => drain(createRun(s, { memberPart: { armId: 'peer', memberId: me, exchange: r.exchange(me, partner) } }));
    const [a, b] = await Promise.all([part('A', 'B'), part('B', 'A')]);
    expect(tf.memory().numTensors).toBe(before);

    // Each part built and trained its own member only, and reports it with the pair's measures.
    expect(a.events.filter((e) => e.type === 'warmstart').every((e) => e.type === 'warmstart' && e.memberId === 'A')).toBe(true);
    const stepA = a.events.find((e) => e.type === 'step')!;
    expect(stepA.type === 'step' && [stepA.arms.map((x) => x.armId), Object.keys(stepA.arms[0].members), stepA.arms[0].pairs.length]).toEqual([['peer'], ['A'], 1]);

    const m = merged(s, a.events, b.events);
    const steps = single.filter((e) => e.type !== 'done');
    expect(m.events.map(timeless)).toEqual(steps.map(timeless));
    const done = single.at(-1)!;
    expect(done.type === 'done' && science(m.summary)).toEqual(done.type === 'done' && science(done.summary));
    // The pair had something to exchange: parseable answers, ties, disagreements, clipped gradients.
    const history = done.type === 'done' ? done.summary.arms[0].members.flatMap((x) => x.history) : [];
    expect(history.some((h) => h.malformedFraction < 1 && h.tieRate > 0 && h.gradNorm > MAX_GRAD_NORM)).toBe(true);
    expect(done.type === 'done' && done.summary.arms[0].pairs.some((p) => p.agreement !== null && p.agreement < 1)).toBe(true);
    // Evaluations were merged too (steps 2 and 3), with the pooled pair.
    const last = m.events.at(-1)!;
    expect(last.type === 'step' && [last.arms[0].ensembleMajAtG, last.arms[0].pairs[0].evalKappa !== undefined]).toEqual([expect.any(Number), true]);

    // Every exchange in order: the base's evaluation, then each step's votes and its evaluation.
    const order = ['0 eval', '1 train', '2 train', '2 eval', '3 train', '3 eval'];
    expect(r.calls.filter((c) => c.startsWith('A '))).toEqual(order.map((c) => `A ${c}`));
    expect(r.calls.filter((c) => c.startsWith('B '))).toEqual(order.map((c) => `B ${c}`));
  });

  it('a member part resumes from its checkpoint, also after a stop while it waited for the partner', async () => {
    const s = spec();
    const before = tf.memory().numTensors;
    const r = room();
    const optsA = (exchange: AnswerExchange) => ({ memberPart: { armId: 'peer', memberId: 'A', exchange } });
    const a = (async () => {
      // First A: checkpointed at step 1, then on to step 2; its step-3 wait is stopped after its answers went out.
      const first = createRun(s, optsA(async (step, kind, answers) => {
        if (step === 3) {
          void r.exchange('A', 'B')(step, kind, answers);
          throw new Error('stopped while waiting for the partner');
        }
        return r.exchange('A', 'B')(step, kind, answers);
      }));
      const events: RunnerEvent[] = [];
      let at1: Checkpoint | undefined;
      await expect((async () => {
        for await (const e of first.events()) {
          events.push(e);
          if (e.type === 'step' && e.step === 1) at1 = await first.checkpoint();
        }
      })()).rejects.toThrow('stopped while waiting for the partner');
      // Stopped before its update: the checkpoint is of step 2, the last completed step.
      const at2 = await first.checkpoint();
      first.dispose();
      expect([at1!.step, at2.step]).toEqual([1, 2]);
      // From step 1: step 2 again (the partner's stored answers come back), then step 3.
      const again = await drain(createRun(s, { ...optsA(r.exchange('A', 'B')), checkpoint: structuredClone(at1!) }));
      const fromAt2 = createRun(s, { ...optsA(r.exchange('A', 'B')), checkpoint: structuredClone(at2) });
      const rest = await drain(fromAt2);
      const step = (evs: RunnerEvent[], k: number) => timeless(evs.find((e) => e.type === 'step' && e.step === k)!);
      expect(step(again.events, 2)).toEqual(step(events, 2));
      expect(step(again.events, 3)).toEqual(step(rest.events, 3));
      return [...events, ...rest.events.filter((e) => e.type === 'step')];
    })();
    const [eventsA, b] = await Promise.all([a, drain(createRun(s, { memberPart: { armId: 'peer', memberId: 'B', exchange: r.exchange('B', 'A') } }))]);
    expect(tf.memory().numTensors).toBe(before);
    expect(merged(s, eventsA, b.events).events.map(timeless)).toEqual(single.filter((e) => e.type !== 'done').map(timeless));
    // The resumed parts asked again only for what came after their checkpoints.
    expect(r.calls.filter((c) => c.startsWith('A '))).toEqual(['A 0 eval', 'A 1 train', 'A 2 train', 'A 2 eval', 'A 3 train', 'A 2 train', 'A 2 eval', 'A 3 train', 'A 3 eval', 'A 3 train', 'A 3 eval']);
  });

  it("stops with words saying what was wrong when the partner's answers are malformed", async () => {
    const s = spec(1);
    const before = tf.memory().numTensors;
    const warmStartCache = memoryWarmStartCache(); // B is warm-started once
    const failWith = async (reply: (step: number, kind: ExchangeKind, answers: Answer[][]) => unknown) => {
      const exchange: AnswerExchange = async (step, kind, answers) => reply(step, kind, answers) as Answer[][];
      const run = createRun(s, { warmStartCache, memberPart: { armId: 'peer', memberId: 'B', exchange } });
      try {
        for await (const e of run.events()) void e;
        return 'no error';
      } catch (e) {
        return (e as Error).message;
      } finally {
        run.dispose();
      }
    };
    // The base: one held-out problem short.
    expect(await failWith((_, __, answers) => answers.slice(1))).toBe('the held-out answers of member A (the partner) at the base are malformed: expected 8 prompts, got 7');
    // Step 1: a prompt with 5 of its 6 votes; then an answer that is a number.
    const atStep1 = (bad: (answers: Answer[][]) => unknown) => failWith((step, _, answers) => (step === 1 ? bad(answers) : answers));
    expect(await atStep1((answers) => answers.map((x, b) => (b === 2 ? x.slice(1) : x)))).toBe(
      'the answers of member A (the partner) at step 1 are malformed: prompt 2 has an array of 5 answers, expected 6',
    );
    expect(await atStep1((answers) => answers.map((x, b) => (b === 1 ? [...x.slice(1), 7] : x)))).toBe(
      'the answers of member A (the partner) at step 1 are malformed: answer 5 of prompt 1 is number, expected a string or null',
    );
    expect(await atStep1(() => ({ answers: [] }))).toMatch(/at step 1 are malformed: expected 3 prompts, got object$/);
    // Stopped while it waited for the partner's held-out answers (after its update): no checkpoint of a torn step.
    const run = createRun(s, { warmStartCache, memberPart: { armId: 'peer', memberId: 'B', exchange: async (step, kind, answers) => {
      if (step === 1 && kind === 'eval') throw new Error('stopped while waiting for the partner');
      return answers;
    } } });
    await expect((async () => {
      for await (const e of run.events()) void e;
    })()).rejects.toThrow('stopped while waiting for the partner');
    await expect(run.checkpoint()).rejects.toThrow(/^no checkpoint: step 1 was stopped while it waited for the partner's held-out answers, after its update/);
    run.dispose();
    expect(tf.memory().numTensors).toBe(before);
  });

  it('halts on a blow-up in either member as the one-browser run does', async () => {
    const s = spec(2);
    const faults = { poisonWeight: { step: 1, armId: 'peer', memberId: 'B' } };
    const alone = (await drain(createRun(pairSpec(s, 'peer'), { faults }))).events.at(-1)!;
    const r = room();
    const part = (me: string, partner: string, stopAt?: number) =>
      drain(createRun(s, { faults, memberPart: { armId: 'peer', memberId: me, exchange: r.exchange(me, partner) } }), stopAt);
    // A's step 1 is fine; B's blows up (and B's part ends there, so A stops after its step 1).
    const [a, b] = await Promise.all([part('A', 'B', 1), part('B', 'A')]);
    const halt = mergeMemberSteps(s, 'peer', [b.events.at(-1)!, a.events.at(-1)!], 0);
    expect(alone.type).toBe('nonfinite');
    expect(halt).toEqual(alone);
  });

  it('is refused for an arm that is not a two-member peer arm, or a member not in it', () => {
    const exchange: AnswerExchange = async () => [];
    expect(() => createRun(spec(), { memberPart: { armId: 'self', memberId: 'C', exchange } })).toThrow(/arm self is a self arm of 1 members; only a peer arm of two members/);
    expect(() => createRun(spec(), { memberPart: { armId: 'peer', memberId: 'C', exchange } })).toThrow(/member "C" is not in arm peer/);
    expect(() => createRun(spec(), { memberPart: { armId: 'nope', memberId: 'A', exchange } })).toThrow(/has no arm "nope"/);
    expect(() => checkedAnswers([['1', null]], 1, 2, 'x')).not.toThrow();
  });
});

describe('merging a pair (plain data)', () => {
  const s = spec();
  const step = (memberId: string, k = 2, pairs = [{ a: 'A', b: 'B', agreement: 0.5, kappa: null, bothWrongSame: 0 }]): RunnerEvent => ({
    type: 'step',
    step: k,
    steps: 3,
    arms: [{ armId: 'peer', scheme: 'peer', members: { [memberId]: {} as never }, pairs }],
    samples: [{ armId: 'peer', prompt: '1+2=', truth: '3', members: [{ memberId } as never] }],
    stepMs: 5,
    tokens: 10,
  });

  it('puts the members in the arm order, sums the tokens, and refuses parts that disagree or are out of step', () => {
    const m = mergeMemberSteps(s, 'peer', [step('B'), step('A')], 9);
    expect(m.type === 'step' && [Object.keys(m.arms[0].members), m.samples[0].members.map((x) => x.memberId), m.tokens, m.stepMs]).toEqual([['A', 'B'], ['A', 'B'], 20, 9]);
    expect(() => mergeMemberSteps(s, 'peer', [step('A'), step('B', 3)], 0)).toThrow(/out of step: step 2, step 3/);
    expect(() => mergeMemberSteps(s, 'peer', [step('A'), step('A')], 0)).toThrow(/no step 2 of member B of arm peer/);
    const other = step('B', 2, [{ a: 'A', b: 'B', agreement: 1, kappa: null, bothWrongSame: 0 }]);
    expect(() => mergeMemberSteps(s, 'peer', [step('A'), other], 0)).toThrow(/the pair's measures disagree at step 2/);
  });
});
