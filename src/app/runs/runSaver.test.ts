import { describe, expect, it } from 'vitest';
import type { WorkerEvent } from '../../engine/protocol';
import type { RecordedEvent } from '../store/record';
import { checkLoadedRun } from './runData';
import { RunSaver } from './runSaver';
import { MemoryRunStore, base, checkpoint, done, eventsThrough, meta, quotaError, spec, step } from './testData';

/** Timers the test fires by hand. */
function manualTimers() {
  let pending: (() => void)[] = [];
  return {
    setTimer: (fn: () => void) => {
      pending.push(fn);
      return fn;
    },
    clearTimer: (t: unknown) => {
      pending = pending.filter((f) => f !== t);
    },
    fire() {
      const now = pending;
      pending = [];
      for (const fn of now) fn();
    },
  };
}

const settle = () => new Promise((r) => setTimeout(r, 0));
const runner = (runId: number, event: RecordedEvent): WorkerEvent => ({ type: 'runner', runId, event });
const state = (runId: number, phase: 'rl' | 'done' | 'stopped', paused = false, halted = false): WorkerEvent => ({ type: 'state', runId, phase, paused, step: 0, halted });
const cp = (runId: number, atStep: number): WorkerEvent => ({ type: 'checkpoint', runId, reason: 'every', checkpoint: checkpoint(atStep) });

function setup() {
  const store = new MemoryRunStore();
  const timers = manualTimers();
  const problems: (string | null)[] = [];
  let ids = 0;
  const saver = new RunSaver(store, { now: () => 5000, newId: () => `run-${++ids}`, backend: () => 'wasm', onProblem: (p) => problems.push(p), ...timers });
  const newRun = { name: 'Quick look', presetId: 'quick', edited: false, spec, backend: null };
  return { store, timers, problems, saver, newRun };
}

async function loaded(store: MemoryRunStore, id: string) {
  const raw = await store.load(id);
  const r = checkLoadedRun(raw!.meta, raw!.events, raw!.checkpoint);
  if (!r.ok) throw new Error(r.problem);
  return r.value;
}

describe('saving a run as it goes', () => {
  it('creates the run at once, then appends events in batches and a checkpoint with the events before it', async () => {
    const { store, timers, saver, newRun } = setup();
    const id = saver.begin(1, newRun);
    await settle();
    expect((await store.list()).length).toBe(1);
    saver.event({ type: 'runner', runId: 1, event: { type: 'warmstart', memberId: 'A', step: 1, steps: 5, loss: 1, memberIndex: 0, memberCount: 1 } });
    for (const ev of eventsThrough(3)) saver.event(runner(1, ev));
    await settle();
    expect(store.writes).toHaveLength(1); // only the creation: the steps wait for the batch
    timers.fire();
    await settle();
    expect(store.writes).toHaveLength(2);
    expect(store.writes[1].events?.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    // A write never holds the whole run again: only what is new.
    saver.event(runner(1, step(4)));
    saver.event(runner(1, step(5)));
    saver.event(cp(1, 5));
    await settle();
    expect(store.writes).toHaveLength(3);
    expect(store.writes[2].events?.map((e) => e.seq)).toEqual([4, 5]);
    expect(store.writes[2].checkpoint?.step).toBe(5);
    const run = await loaded(store, id);
    expect(run.events).toEqual(eventsThrough(5));
    expect(run.checkpoint?.step).toBe(5);
    expect(run.meta).toMatchObject({ status: 'running', stepsDone: 5, eventCount: 6, checkpointStep: 5, backend: 'wasm' });
    expect(saver.savedIdOf(1)).toBe(id);
  });

  it("saves a paired seat's member part in the run's description, and an ordinary run without one", async () => {
    const { store, saver, newRun } = setup();
    const part = saver.begin(1, { ...newRun, memberPart: { armId: 'peer', memberId: 'B' } });
    const whole = saver.begin(2, newRun);
    await settle();
    expect((await store.load(part))!.meta).toMatchObject({ memberPart: { armId: 'peer', memberId: 'B' } });
    expect((await store.load(whole))!.meta).not.toHaveProperty('memberPart');
  });

  it('after a lost device drops the saved steps past the checkpoint the run was rebuilt from, then saves them again once', async () => {
    const { store, timers, saver, newRun } = setup();
    const id = saver.begin(1, newRun);
    for (const ev of eventsThrough(5)) saver.event(runner(1, ev));
    saver.event(cp(1, 5));
    saver.event(runner(1, step(6)));
    saver.event(runner(1, step(7)));
    timers.fire();
    await settle();
    expect((await loaded(store, id)).meta.stepsDone).toBe(7);
    saver.event({ type: 'recovered', runId: 1, fromStep: 5 });
    await settle();
    let run = await loaded(store, id);
    expect(run.events).toEqual(eventsThrough(5));
    expect(run.meta).toMatchObject({ stepsDone: 5, eventCount: 6, checkpointStep: 5 });
    saver.event(runner(1, step(6)));
    timers.fire();
    await settle();
    run = await loaded(store, id);
    expect(run.events).toEqual(eventsThrough(6));
  });

  it('writes status changes and the end at once', async () => {
    const { store, saver, newRun } = setup();
    const id = saver.begin(1, newRun);
    saver.event(state(1, 'rl', true));
    await settle();
    expect((await loaded(store, id)).meta.status).toBe('paused');
    for (const ev of eventsThrough(spec.steps)) saver.event(runner(1, ev));
    saver.event(state(1, 'done'));
    await settle();
    const run = await loaded(store, id);
    expect(run.meta.status).toBe('done');
    expect(run.events.at(-1)).toEqual(done());
  });

  it('saves a run halted by a non-finite step as halted, not paused', async () => {
    const { store, saver, newRun } = setup();
    const id = saver.begin(1, newRun);
    for (const ev of eventsThrough(3)) saver.event(runner(1, ev));
    saver.event(state(1, 'rl', true, true));
    await settle();
    expect((await loaded(store, id)).meta.status).toBe('halted');
  });

  it('after a failed write keeps what was saved, reports it, and loses nothing once writing works again', async () => {
    const { store, saver, problems, newRun } = setup();
    const id = saver.begin(1, newRun);
    for (const ev of eventsThrough(5)) saver.event(runner(1, ev));
    saver.event(cp(1, 5));
    await settle();
    const before = structuredClone(await store.load(id));

    store.failWith = quotaError();
    saver.event(runner(1, step(6)));
    saver.event(state(1, 'rl', true));
    saver.event(runner(1, step(7)));
    await saver.flushAll();
    await settle();
    expect(problems.at(-1)).toMatch(/^Saving failed: the browser's storage for this site is full .*what was saved before is kept\.$/);
    expect(await store.load(id)).toEqual(before);

    store.failWith = null;
    saver.event(runner(1, step(8)));
    saver.event(cp(1, 8));
    await settle();
    expect(problems.at(-1)).toBeNull();
    const run = await loaded(store, id);
    expect(run.events).toEqual([...eventsThrough(7), step(8)]);
    expect(run.meta).toMatchObject({ status: 'paused', stepsDone: 8, checkpointStep: 8 });
  });

  it('a run whose creation failed is created by the next write that works', async () => {
    const { store, saver, newRun } = setup();
    store.failWith = quotaError();
    const id = saver.begin(1, newRun);
    saver.event(runner(1, base));
    await settle();
    expect(await store.list()).toEqual([]);
    store.failWith = null;
    saver.event(runner(1, step(1)));
    saver.event(cp(1, 1));
    await settle();
    expect((await loaded(store, id)).events).toEqual([base, step(1)]);
  });

  it('a resumed run replaces the saved events after the checkpoint and appends to the same run', async () => {
    const { store, saver } = setup();
    const events = eventsThrough(7);
    await store.write({ id: 'run-9', create: meta({ id: 'run-9', stepsDone: 7, eventCount: 8, checkpointStep: 5, status: 'running' }), patch: {}, events: events.map((event, seq) => ({ seq, event })), checkpoint: checkpoint(5) });
    // The page replays base..step 5 (6 events) and continues from the checkpoint as run 2.
    saver.continue(2, 'run-9', 6, 5, 5);
    await settle();
    expect((await loaded(store, 'run-9')).events).toEqual(eventsThrough(5));
    saver.event(runner(2, base)); // the continued run's base again: already saved
    for (const n of [6, 7, 8]) saver.event(runner(2, step(n)));
    saver.event(cp(2, 8));
    saver.event(runner(2, done()));
    saver.event(state(2, 'done'));
    await settle();
    const run = await loaded(store, 'run-9');
    expect(run.events).toEqual(eventsThrough(spec.steps));
    expect(run.meta).toMatchObject({ status: 'done', stepsDone: 8, eventCount: 10, checkpointStep: 8 });
  });

  it('a rename while the run saves is kept; a deleted run is not written again', async () => {
    const { store, saver, timers, newRun } = setup();
    const id = saver.begin(1, newRun);
    saver.event(runner(1, base));
    await settle();
    await saver.rename(id, 'Mine');
    saver.event(runner(1, step(1)));
    saver.event(cp(1, 1));
    await settle();
    expect((await loaded(store, id)).meta.name).toBe('Mine');

    await saver.remove(id);
    saver.event(runner(1, step(2)));
    saver.event(cp(1, 2));
    timers.fire();
    await settle();
    expect(await store.load(id)).toBeNull();
    expect(saver.savedIdOf(1)).toBeUndefined();
  });
});
