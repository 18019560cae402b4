/**
 * The training worker's checkpoints, driven in Node without a browser: the worker module runs
 * against a fake `self` (its postMessage collects what it posts, structured-cloned as a real
 * worker's would be), on the wasm backend, with no stored warm starts. Checks that checkpoints
 * come after the base, every CHECKPOINT_EVERY steps, on pause, on stop and at the end, each right
 * after the event of its step, and that a run started from one continues as the whole run did.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { layered, member } from '../core/experiment/presets';
import type { RunnerEvent } from '../core/experiment/events';
import type { ExperimentSpec } from '../core/experiment/spec';
import { CHECKPOINT_EVERY, isWorkerCommand, type Checkpoint, type WorkerCommand, type WorkerEvent } from './protocol';

/** A backend start that never ends (the last test sets it): as a wasm build blocked by a CSP. */
const hang = { on: false };
vi.mock('./backend', async () => {
  const node = await import('./node-backend');
  return { chooseBackend: () => (hang.on ? new Promise(() => {}) : node.initNodeBackend('wasm')), onDeviceLost: () => () => {} };
});
vi.mock('./warmStartSource', () => ({ browserWarmStartCache: () => ({ load: async () => null, save: async () => {} }) }));

const spec: ExperimentSpec = layered({
  seed: 5,
  task: { id: 'digitsum', difficulty: 3 },
  data: { labeledPool: 200, rlPool: 200, heldOut: 8 },
  members: [member({ id: 'A', family: 'mlp', dModel: 16, layers: 1, warmStartSteps: 5, warmStartExamples: 200 })],
  arms: [
    { id: 'oracle', scheme: 'oracle', members: ['A'] },
    { id: 'self', scheme: 'self', members: ['A'] },
  ],
  grpo: { promptsPerStep: 2, groupSize: 4, learningRate: 1e-3, beta: 0.05 },
  steps: CHECKPOINT_EVERY + 2,
  evalEvery: 3,
});

let posted: WorkerEvent[] = [];
/** Called with every posted event, synchronously (to send a command at an exact moment). */
let onPost: (ev: WorkerEvent) => void = () => {};
const fakeSelf = {
  onmessage: null as ((e: { data: unknown }) => void) | null,
  postMessage(ev: WorkerEvent) {
    const copy = structuredClone(ev);
    posted.push(copy);
    onPost(copy);
  },
  addEventListener() {},
};
const send = (cmd: WorkerCommand) => fakeSelf.onmessage!({ data: cmd });

/** Send `start` and collect this run's events until its state is one of `until`. */
async function runUntil(start: Extract<WorkerCommand, { type: 'start' }>, until: string[], onEvent?: (ev: WorkerEvent) => void): Promise<WorkerEvent[]> {
  posted = [];
  onPost = onEvent ?? (() => {});
  send(start);
  await vi.waitFor(
    () => {
      const ended = posted.some((e) => e.type === 'state' && e.runId === start.runId && until.includes(e.phase));
      const error = posted.find((e) => e.type === 'error');
      if (error) throw new Error(`worker error: ${JSON.stringify(error)}`);
      if (!ended) throw new Error('not yet');
    },
    { timeout: 100_000, interval: 20 },
  );
  // A stop's checkpoint is posted after the 'stopped' state: let dispose() finish.
  await new Promise((r) => setTimeout(r, 200));
  return posted.filter((e) => 'runId' in e && e.runId === start.runId);
}

const checkpoints = (evs: WorkerEvent[]) => evs.filter((e): e is Extract<WorkerEvent, { type: 'checkpoint' }> => e.type === 'checkpoint');
const runnerEvents = (evs: WorkerEvent[]): RunnerEvent[] => evs.flatMap((e) => (e.type === 'runner' ? [e.event] : []));
const stepsOf = (evs: WorkerEvent[]) => runnerEvents(evs).flatMap((e) => (e.type === 'step' ? [e] : []));
/** What a step computed, without its timing. */
const science = (e: Extract<RunnerEvent, { type: 'step' }>) => ({ step: e.step, arms: e.arms, samples: e.samples, tokens: e.tokens });

describe('training worker checkpoints', () => {
  let whole: WorkerEvent[] = [];

  beforeAll(async () => {
    (globalThis as { self?: unknown }).self = fakeSelf;
    await import('./training.worker');
  });

  it('posts one after the base, every CHECKPOINT_EVERY steps and at the end, each after its step', async () => {
    whole = await runUntil({ type: 'start', runId: 1, spec, backend: 'wasm' }, ['done']);
    const cps = checkpoints(whole);
    expect(cps.map((c) => [c.checkpoint.step, c.reason])).toEqual([
      [0, 'base'],
      [CHECKPOINT_EVERY, 'every'],
      [spec.steps, 'done'],
    ]);
    for (const cp of cps) {
      // The event just before a checkpoint is the runner event of its step.
      const before = whole[whole.indexOf(cp) - 1];
      expect(before.type).toBe('runner');
      const ev = (before as Extract<WorkerEvent, { type: 'runner' }>).event;
      expect(ev.type === 'base' ? 0 : ev.type === 'step' ? ev.step : -1).toBe(cp.checkpoint.step);
    }
    // Plain data across the boundary: weights stay Float32Arrays.
    expect(cps[1].checkpoint.arms[0].members[0].weights[0].values).toBeInstanceOf(Float32Array);
    expect(stepsOf(whole).map((e) => e.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('continues from a checkpoint exactly as the whole run went on', async () => {
    const from = checkpoints(whole)[1].checkpoint;
    const rest = await runUntil({ type: 'start', runId: 2, spec, backend: 'wasm', checkpoint: from }, ['done']);
    const types = runnerEvents(rest).map((e) => e.type);
    // Not the base again: the page shows it already.
    expect(types).toEqual(['step', 'step', 'done']);
    expect(stepsOf(rest).map(science)).toEqual(stepsOf(whole).slice(CHECKPOINT_EVERY).map(science));
    // It does not post again the checkpoint it started from; it posts the end's.
    expect(checkpoints(rest).map((c) => c.checkpoint.step)).toEqual([spec.steps]);
    expect(rest.some((e) => e.type === 'state' && e.phase === 'warmstart')).toBe(false);
  });

  it('posts one when a run pauses and when it is stopped between checkpoints', async () => {
    const from = checkpoints(whole)[0].checkpoint; // step 0
    let paused = false;
    const evs = await runUntil({ type: 'start', runId: 3, spec, backend: 'wasm', checkpoint: from }, ['stopped'], (ev) => {
      // Pause right after step 1 is posted; once paused, Step +1 (step 2); then Stop after step 3 (resumed).
      if (ev.type === 'runner' && ev.event.type === 'step' && ev.event.step === 1) send({ type: 'pause' });
      if (ev.type === 'state' && ev.paused && !paused) {
        paused = true;
        send({ type: 'step' });
      }
      if (ev.type === 'checkpoint' && ev.checkpoint.step === 2) send({ type: 'resume' });
      if (ev.type === 'runner' && ev.event.type === 'step' && ev.event.step === 3) send({ type: 'stop' });
    });
    expect(checkpoints(evs).map((c) => [c.checkpoint.step, c.reason])).toEqual([
      [1, 'paused'],
      [2, 'paused'],
      [3, 'stopped'],
    ]);
    expect(stepsOf(evs).map(science)).toEqual(stepsOf(whole).slice(0, 3).map(science));
  });

  it('refuses a checkpoint of another experiment, in words', async () => {
    const from = checkpoints(whole)[1].checkpoint;
    posted = [];
    send({ type: 'start', runId: 4, spec: { ...spec, seed: 6 }, backend: 'wasm', checkpoint: from as Checkpoint });
    await vi.waitFor(() => expect(posted.some((e) => e.type === 'error')).toBe(true));
    const error = posted.find((e) => e.type === 'error') as Extract<WorkerEvent, { type: 'error' }>;
    expect(error.message).toBe('The saved run cannot be continued: the checkpoint was taken from another experiment');
  });

  describe('a member part (one member of a peer arm whose partner trains in another browser)', () => {
    const pair: ExperimentSpec = {
      ...spec,
      members: [spec.members[0], { ...spec.members[0], id: 'B', initSeed: 99, dataSeed: 99, sampleSeed: 99 }],
      arms: [{ id: 'peer', scheme: 'peer', members: ['A', 'B'], tau: 0 }],
      steps: 4,
      evalEvery: 2,
    };
    const memberPart = { armId: 'peer', memberId: 'A' };
    type Exchange = Extract<WorkerEvent, { type: 'exchange' }>;
    const exchanges = (evs: WorkerEvent[]) => evs.filter((e): e is Exchange => e.type === 'exchange').map((e) => `${e.step} ${e.kind}`);
    /** The page's relay, here a mirror: the partner "answers" what this member sent, a moment later. */
    const mirror = (ev: Exchange) => setTimeout(() => send({ type: 'exchange-reply', runId: ev.runId, step: ev.step, kind: ev.kind, answers: ev.answers }), 1);
    let whole: WorkerEvent[] = [];

    it("posts its answers as 'exchange' and trains on the page's replies", async () => {
      whole = await runUntil({ type: 'start', runId: 10, spec: pair, backend: 'wasm', memberPart }, ['done'], (ev) => ev.type === 'exchange' && mirror(ev));
      expect(exchanges(whole)).toEqual(['0 eval', '1 train', '2 train', '2 eval', '3 train', '4 train', '4 eval']);
      const answers = whole.find((e): e is Exchange => e.type === 'exchange' && e.kind === 'train')!.answers;
      expect([answers.length, answers[0].length]).toEqual([pair.grpo.promptsPerStep, pair.grpo.groupSize]);
      expect(stepsOf(whole).map((e) => [e.step, Object.keys(e.arms[0].members)])).toEqual([1, 2, 3, 4].map((k) => [k, ['A']]));
      expect(checkpoints(whole).map((c) => [c.checkpoint.step, c.reason, c.checkpoint.arms[0].members.map((m) => m.id)])).toEqual([
        [0, 'base', ['A']],
        [4, 'done', ['A']],
      ]);
    });

    it('stops cleanly while it waits for the partner; its checkpoint continues it, asking again only after it', async () => {
      const stopped = await runUntil({ type: 'start', runId: 11, spec: pair, backend: 'wasm', memberPart }, ['stopped'], (ev) => {
        if (ev.type !== 'exchange') return;
        if (ev.step === 3) setTimeout(() => send({ type: 'stop' }), 20);
        else mirror(ev);
      });
      expect(exchanges(stopped).at(-1)).toBe('3 train');
      const cps = checkpoints(stopped);
      expect(cps.map((c) => [c.checkpoint.step, c.reason])).toEqual([
        [0, 'base'],
        [2, 'stopped'],
      ]);
      // A late reply to the stopped wait is dropped.
      send({ type: 'exchange-reply', runId: 11, step: 3, kind: 'train', answers: [] });
      const rest = await runUntil({ type: 'start', runId: 12, spec: pair, backend: 'wasm', memberPart, checkpoint: cps[1].checkpoint }, ['done'], (ev) => ev.type === 'exchange' && mirror(ev));
      expect(exchanges(rest)).toEqual(['3 train', '4 train', '4 eval']);
      expect(stepsOf(rest).map(science)).toEqual(stepsOf(whole).slice(2).map(science));
    });

    it("refuses a member that is not in the peer arm, a member's checkpoint for a whole run, and malformed replies, in words", async () => {
      const refusal = async (start: Extract<WorkerCommand, { type: 'start' }>, reply?: (ev: Exchange) => void) => {
        posted = [];
        onPost = (ev) => ev.type === 'exchange' && reply?.(ev);
        send(start);
        await vi.waitFor(() => expect(posted.some((e) => e.type === 'error')).toBe(true), { timeout: 60_000 });
        await vi.waitFor(() => expect(posted.some((e) => e.type === 'state' && e.phase === 'error')).toBe(true));
        return (posted.find((e) => e.type === 'error') as Extract<WorkerEvent, { type: 'error' }>).message;
      };
      expect(await refusal({ type: 'start', runId: 13, spec: pair, memberPart: { armId: 'peer', memberId: 'C' } })).toBe(
        'This experiment cannot be trained as a member part: member "C" is not in arm peer (its members: A, B)',
      );
      expect(await refusal({ type: 'start', runId: 14, spec: pair, checkpoint: checkpoints(whole)[0].checkpoint })).toBe(
        'The saved run cannot be continued: the checkpoint lacks member "B"',
      );
      const short = (ev: Exchange) => setTimeout(() => send({ type: 'exchange-reply', runId: ev.runId, step: ev.step, kind: ev.kind, answers: ev.answers.slice(1) }), 1);
      expect(await refusal({ type: 'start', runId: 15, spec: pair, backend: 'wasm', memberPart }, short)).toBe(
        'the held-out answers of member B (the partner) at the base are malformed: expected 8 prompts, got 7',
      );
      expect(isWorkerCommand({ type: 'exchange-reply', runId: 1, step: -1, kind: 'train', answers: [] })).toBe(false);
      expect(isWorkerCommand({ type: 'exchange-reply', runId: 1, step: 2, kind: 'vote', answers: [] })).toBe(false);
      expect(isWorkerCommand({ type: 'start', runId: 1, spec: pair, memberPart: { armId: 'peer' } })).toBe(false);
      expect(isWorkerCommand({ type: 'exchange-reply', runId: 1, step: 2, kind: 'eval', answers: [] })).toBe(true);
    });
  });

  it('says so when no backend starts within the time limit, instead of detecting for ever', async () => {
    hang.on = true;
    vi.useFakeTimers();
    try {
      posted = [];
      send({ type: 'prepare', backend: 'cpu' }); // another backend than the one prepared: a new start
      await vi.advanceTimersByTimeAsync(89_000);
      expect(posted).toEqual([]);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(posted).toHaveLength(1);
      expect(posted[0]).toMatchObject({ type: 'error', runId: 0 });
      expect((posted[0] as Extract<WorkerEvent, { type: 'error' }>).message).toMatch(/^no tfjs backend started within 90 s: .*\?backend=cpu$/);
    } finally {
      vi.useRealTimers();
      hang.on = false;
    }
  });
});
