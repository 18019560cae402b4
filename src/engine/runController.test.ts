/**
 * The run controller's rules, input by input: commands and effect outcomes in, effects out.
 * Plain objects only (no tfjs, no clock): a fake runner event is all a step needs here.
 */
import { measuredMissOf } from './runDriver';
import { describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../core/experiment/events';
import type { Checkpoint } from '../core/experiment/runner';
import { CHECKPOINT_EVERY, type CheckpointReason, type WorkerEvent } from './protocol';
import { type ControllerEffect, type ControllerInput, type RunControllerState, startRun, transition } from './runController';

const STEPS = 12;
const step = (k: number): RunnerEvent => ({ type: 'step', step: k, steps: STEPS, arms: [], samples: [], stepMs: 1, tokens: 1 });
const base: RunnerEvent = { type: 'base', members: [], base: [], baseKappa: [] };
const warm: RunnerEvent = { type: 'warmstart', memberId: 'A', step: 1, steps: 10, loss: 1, memberIndex: 0, memberCount: 1 };
const cp = (k: number) => ({ step: k, spec: { steps: STEPS } }) as unknown as Checkpoint;
const nonfinite: RunnerEvent = { type: 'nonfinite', step: 4, armId: 'self', memberId: 'A', quantity: 'loss', value: 'NaN', explanation: 'lower the learning rate' };

/** A controller and the effects it produced, fed input by input. */
class Harness {
  state: RunControllerState;
  effects: ControllerEffect[];
  constructor(opts: Parameters<typeof startRun>[2] = {}) {
    const t = startRun(7, STEPS, opts);
    this.state = t.state;
    this.effects = this.autoTick(t.effects, 0);
  }
  /** Feed an input; a tick it asks for passes at once (its effects are folded in, the tick dropped). */
  feed(input: ControllerInput, now = 0): ControllerEffect[] {
    const t = transition(this.state, input, now);
    this.state = t.state;
    this.effects = this.autoTick(t.effects, now);
    return this.effects;
  }
  feedRaw(input: ControllerInput, now = 0): ControllerEffect[] {
    const t = transition(this.state, input, now);
    this.state = t.state;
    this.effects = t.effects;
    return t.effects;
  }
  private autoTick(effects: ControllerEffect[], now: number): ControllerEffect[] {
    const tick = effects.find((e) => e.type === 'tick');
    if (!tick) return effects;
    const t = transition(this.state, { type: 'ticked', generation: tick.generation }, now);
    this.state = t.state;
    return [...effects.filter((e) => e !== tick), ...this.autoTick(t.effects, now)];
  }
  pulled(event: RunnerEvent | null, now = 0) {
    return this.feed({ type: 'pulled', generation: this.state.generation, event, now }, now);
  }
  checkpointed(reason: CheckpointReason, k: number | null) {
    return this.feed({ type: 'checkpointed', generation: this.state.generation, reason, checkpoint: k === null ? null : cp(k) });
  }
  /** Pull the base then steps 1..k, taking every checkpoint asked for. */
  runTo(k: number) {
    this.pulled(base);
    if (this.next()?.type === 'checkpoint') this.checkpointed('base', 0);
    for (let i = 1; i <= k; i++) {
      this.pulled(step(i));
      const e = this.next();
      if (e?.type === 'checkpoint') this.checkpointed(e.reason, i);
    }
  }
  /** The async effect asked for last (pull, checkpoint, wait, recover, dispose), if any. */
  next(): ControllerEffect | undefined {
    return this.effects.filter((e) => e.type !== 'post').at(-1);
  }
  posts(): WorkerEvent[] {
    return this.effects.flatMap((e) => (e.type === 'post' ? [e.event] : []));
  }
}

const kinds = (effects: ControllerEffect[]) => effects.map((e) => (e.type === 'post' ? `post:${e.event.type}` : e.type));

describe('run controller', () => {
  it('starts in the warm start, says so, and pulls', () => {
    const h = new Harness();
    expect(h.posts()).toEqual([{ type: 'state', runId: 7, phase: 'warmstart', paused: false, step: 0, halted: false }]);
    expect(h.next()).toEqual({ type: 'pull', generation: 0 });
    expect(h.state.busy).toBe('pull');
  });

  it('posts runner events, moves to rl at the base, and checkpoints after the base and every CHECKPOINT_EVERY steps', () => {
    const h = new Harness();
    expect(kinds(h.pulled(warm))).toEqual(['post:runner', 'pull']);
    expect(kinds(h.pulled(base))).toEqual(['post:state', 'post:runner', 'checkpoint']);
    expect(h.posts()[0]).toMatchObject({ type: 'state', phase: 'rl' });
    expect(h.next()).toMatchObject({ reason: 'base' });
    expect(kinds(h.checkpointed('base', 0))).toEqual(['post:checkpoint', 'pull']);
    const asked: number[] = [];
    for (let k = 1; k <= STEPS; k++) {
      h.pulled(step(k));
      const e = h.next();
      if (e?.type === 'checkpoint') {
        asked.push(k);
        expect(e.reason).toBe(k === STEPS ? 'done' : 'every');
        h.checkpointed(e.reason, k);
      }
    }
    expect(asked).toEqual([CHECKPOINT_EVERY, 2 * CHECKPOINT_EVERY, STEPS]);
    expect(kinds(h.pulled({ type: 'done', summary: {} as never }))).toEqual(['post:runner', 'post:state', 'dispose']);
    expect(h.state.phase).toBe('done');
  });

  it('never posts a checkpoint of a step the page was not sent', () => {
    const h = new Harness();
    h.runTo(2);
    h.feed({ type: 'pause' });
    h.pulled(step(3));
    expect(h.next()).toMatchObject({ type: 'checkpoint', reason: 'paused' });
    // The runner answers with another step's state (it should not): not posted.
    expect(kinds(h.checkpointed('paused', 1))).toEqual(['post:state']);
    expect(h.state.lastCheckpoint?.step).toBe(0);
  });

  it('pauses before the next pull, with a checkpoint first, and posts paused only when nothing is in flight', () => {
    const h = new Harness();
    h.runTo(1); // a pull of step 2 is in flight
    expect(h.state.busy).toBe('pull');
    expect(h.feed({ type: 'pause' })).toEqual([]); // nothing to do until the step lands
    expect(kinds(h.pulled(step(2)))).toEqual(['post:runner', 'checkpoint']);
    expect(h.next()).toMatchObject({ reason: 'paused' });
    expect(h.posts()).toEqual([{ type: 'runner', runId: 7, event: step(2) }]);
    const after = h.checkpointed('paused', 2);
    expect(kinds(after)).toEqual(['post:checkpoint', 'post:state']);
    expect(h.posts()[1]).toEqual({ type: 'state', runId: 7, phase: 'rl', paused: true, step: 2, halted: false });
    expect(h.state.busy).toBeNull();
  });

  it('runs exactly one step per Step while paused, then pauses again', () => {
    const h = new Harness({ paused: true });
    // Paused from the start: nothing is pulled, paused is posted.
    expect(kinds(h.effects)).toEqual(['post:state', 'post:state']);
    expect(h.posts()[1]).toMatchObject({ paused: true, phase: 'warmstart' });
    expect(kinds(h.feed({ type: 'step' }))).toEqual(['pull']);
    h.pulled(warm);
    expect(h.next()).toEqual({ type: 'pull', generation: 0 }); // the warm start is finished first
    h.pulled(base);
    h.checkpointed('base', 0);
    expect(h.next()).toEqual({ type: 'pull', generation: 0 });
    const e = h.pulled(step(1));
    expect(kinds(e)).toEqual(['post:runner', 'checkpoint']);
    h.checkpointed('paused', 1);
    expect(h.posts().at(-1)).toMatchObject({ type: 'state', paused: true, step: 1 });
    expect(h.state.busy).toBeNull();
  });

  it('yields a tick before every pull, so a Pause sent meanwhile stops the next step', () => {
    const h = new Harness();
    h.pulled(base);
    h.checkpointed('base', 0);
    expect(kinds(h.feedRaw({ type: 'pulled', generation: 0, event: step(1), now: 0 }))).toEqual(['post:runner', 'tick']);
    expect(h.feedRaw({ type: 'pause' })).toEqual([]); // the tick is in flight
    expect(kinds(h.feedRaw({ type: 'ticked', generation: 0 }))).toEqual(['checkpoint']);
    expect(h.next()).toMatchObject({ reason: 'paused' });
  });

  it('resumes pulling on Resume and ignores Resume when not paused', () => {
    const h = new Harness({ paused: true });
    expect(kinds(h.feed({ type: 'resume' }))).toEqual(['post:state', 'pull']);
    expect(h.posts()[0]).toMatchObject({ paused: false });
    expect(h.feed({ type: 'resume' })).toEqual([]);
  });

  it('on Stop mid-step posts that step, then its checkpoint, then disposes', () => {
    const h = new Harness();
    h.runTo(2); // pull of step 3 in flight
    expect(kinds(h.feed({ type: 'stop' }))).toEqual(['post:state']);
    expect(h.posts()[0]).toMatchObject({ phase: 'stopped' });
    expect(kinds(h.pulled(step(3)))).toEqual(['post:runner', 'checkpoint']);
    expect(h.next()).toMatchObject({ reason: 'stopped' });
    expect(kinds(h.checkpointed('stopped', 3))).toEqual(['post:checkpoint', 'dispose']);
    expect(h.state.disposed).toBe(true);
    expect(h.feed({ type: 'resume' })).toEqual([]);
  });

  it('on Stop during the warm start disposes without a checkpoint', () => {
    const h = new Harness();
    h.feed({ type: 'stop' });
    expect(kinds(h.pulled(warm))).toEqual(['dispose']);
  });

  it('keeps to the speed limit with short waits, and not during single steps', () => {
    const h = new Harness({ stepsPerSecond: 4 });
    h.pulled(base);
    h.checkpointed('base', 0);
    h.pulled(step(1), 1000);
    expect(h.next()).toEqual({ type: 'wait', generation: 0, ms: 50 });
    h.feed({ type: 'waited', generation: 0, now: 1240 }, 1240);
    expect(h.next()).toEqual({ type: 'wait', generation: 0, ms: 10 });
    h.feed({ type: 'waited', generation: 0, now: 1250 }, 1250);
    expect(h.next()).toEqual({ type: 'pull', generation: 0 });
    h.feed({ type: 'setSpeed', stepsPerSecond: null });
    h.pulled(step(2), 1260);
    expect(h.next()).toEqual({ type: 'pull', generation: 0 });
  });

  it('a checkpoint that fails is not asked again; the run goes on', () => {
    const h = new Harness();
    h.pulled(base);
    expect(kinds(h.checkpointed('base', null))).toEqual(['pull']);
    h.feed({ type: 'pause' });
    h.pulled(step(1));
    expect(h.next()).toMatchObject({ type: 'checkpoint', reason: 'paused' });
    expect(kinds(h.checkpointed('paused', null))).toEqual(['post:state']);
    expect(h.posts()[0]).toMatchObject({ paused: true });
  });

  it('halts at a non-finite event: paused for good, no checkpoint, Resume and Step refused', () => {
    const h = new Harness();
    h.runTo(3);
    const e = h.pulled(nonfinite);
    expect(kinds(e)).toEqual(['post:runner', 'post:state']);
    expect(h.posts()[1]).toEqual({ type: 'state', runId: 7, phase: 'rl', paused: true, step: 3, halted: true });
    expect(kinds(h.feed({ type: 'resume' }))).toEqual(['post:state']);
    expect(h.feed({ type: 'step' })).toEqual([]);
    expect(h.state.busy).toBeNull();
    // Stop: nothing of the poisoned weights is saved.
    expect(kinds(h.feed({ type: 'stop' }))).toEqual(['post:state', 'dispose']);
  });

  it('fails with the error in words and disposes', () => {
    const h = new Harness();
    h.pulled(base);
    h.checkpointed('base', 0);
    const e = h.feed({ type: 'pullFailed', generation: 0, message: 'boom', hint: 'try again' });
    expect(kinds(e)).toEqual(['post:error', 'post:state', 'dispose']);
    expect(h.posts()).toEqual([
      { type: 'error', runId: 7, message: 'boom', hint: 'try again' },
      { type: 'state', runId: 7, phase: 'error', paused: false, step: 0, halted: false },
    ]);
  });

  it("reads a miss from the run's error, also after it crossed a pool worker (name and fields only)", () => {
    const e = Object.assign(new Error('missed'), { name: 'WarmStartMissError', memberId: 'B', measuredCause: { id: 'partial' } });
    expect(measuredMissOf(e)).toEqual({ memberId: 'B', cause: 'partial' });
    expect(measuredMissOf(new Error('other'))).toBeUndefined();
    expect(measuredMissOf(Object.assign(new Error('no cause'), { name: 'WarmStartMissError', memberId: 'B' }))).toBeUndefined();
  });

  it('a warm-start miss posts its member and measured cause with the error, for the page to pick the next member', () => {
    const h = new Harness();
    h.feed({ type: 'pullFailed', generation: 0, message: 'missed', hint: 'h', miss: { memberId: 'A', cause: 'underfit' } });
    expect(h.posts()[0]).toEqual({ type: 'error', runId: 7, message: 'missed', hint: 'h', miss: { memberId: 'A', cause: 'underfit' } });
  });

  it('after a lost device rebuilds from the last checkpoint, drops the lost run’s late outcomes, and goes on', () => {
    const h = new Harness();
    h.runTo(7); // checkpoints at 0 and 5; pull of step 8 in flight
    const lost = h.feed({ type: 'deviceLost', message: 'WebGPU device lost (destroyed)' });
    expect(lost).toEqual([{ type: 'recover', generation: 1, from: cp(5) }]);
    // The lost run's pull settles late: ignored.
    expect(h.feed({ type: 'pulled', generation: 0, event: step(8), now: 0 })).toEqual([]);
    expect(h.feed({ type: 'deviceLost', message: 'again' })).toEqual([]); // one rebuild at a time
    const rebuilt = h.feed({ type: 'recovered', generation: 1 });
    expect(kinds(rebuilt)).toEqual(['post:recovered', 'post:state', 'pull']);
    expect(h.posts()[0]).toEqual({ type: 'recovered', runId: 7, fromStep: 5 });
    expect(h.posts()[1]).toMatchObject({ phase: 'rl', step: 5 });
    // The rebuilt run evaluates its base again: not posted (the page has it), no checkpoint.
    expect(kinds(h.pulled(base))).toEqual(['pull']);
    expect(kinds(h.pulled(step(6)))).toEqual(['post:runner', 'pull']);
  });

  it('a device lost before the first checkpoint starts the run again', () => {
    const h = new Harness();
    h.pulled(warm);
    expect(h.feed({ type: 'deviceLost', message: 'lost' })).toEqual([{ type: 'recover', generation: 1, from: null }]);
    h.feed({ type: 'recovered', generation: 1 });
    expect(h.posts()[0]).toEqual({ type: 'recovered', runId: 7, fromStep: null });
    expect(h.state.phase).toBe('warmstart');
    expect(kinds(h.pulled(base))).toEqual(['post:state', 'post:runner', 'checkpoint']);
  });

  it('a rebuild that fails ends the run in error', () => {
    const h = new Harness();
    h.runTo(1);
    h.feed({ type: 'deviceLost', message: 'lost' });
    const e = h.feed({ type: 'recoveryFailed', generation: 1, message: 'no backend', hint: 'reload' });
    expect(kinds(e)).toEqual(['post:error', 'post:state', 'dispose']);
  });

  it('a continued run does not post its base again nor checkpoint the step it started from', () => {
    const h = new Harness({ checkpoint: cp(5) });
    expect(h.posts()[0]).toMatchObject({ phase: 'rl' });
    expect(kinds(h.pulled(base))).toEqual(['pull']);
    expect(kinds(h.pulled(step(6)))).toEqual(['post:runner', 'pull']);
  });
});
