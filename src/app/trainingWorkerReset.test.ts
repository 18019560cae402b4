/**
 * Reset stops the worker it started: a worker that answers the ping Reset sends keeps going; one
 * held by a computation that never yields (no answer within STUCK_AFTER_MS) is ended and a fresh
 * worker started, which the next Start uses. Driven with fake Workers in Node, on a virtual clock.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { WorkerCommand, WorkerEvent } from '../engine/protocol';

class FakeWorker {
  static all: FakeWorker[] = [];
  sent: WorkerCommand[] = [];
  terminated = false;
  onmessage: ((e: { data: WorkerEvent }) => void) | null = null;
  onerror: unknown = null;
  onmessageerror: unknown = null;
  constructor() {
    FakeWorker.all.push(this);
  }
  postMessage(cmd: WorkerCommand) {
    this.sent.push(structuredClone(cmd));
  }
  terminate() {
    this.terminated = true;
  }
}

const g = globalThis as Record<string, unknown>;
const saved = { Worker: g.Worker, window: g.window };

describe('Reset and a stuck training worker', () => {
  let disconnect: () => void = () => {};
  beforeAll(() => {
    g.Worker = FakeWorker;
    g.window = { location: { search: '' } };
    vi.useFakeTimers();
  });
  afterAll(() => {
    disconnect();
    vi.useRealTimers();
    g.Worker = saved.Worker;
    g.window = saved.window;
  });

  it('keeps a worker that answers, and ends one that does not, starting a fresh one for the next Start', async () => {
    const { connectTrainingWorker, lab, STUCK_AFTER_MS } = await import('./trainingWorker');
    const { useLab } = await import('./store');
    disconnect = connectTrainingWorker(null);
    const first = FakeWorker.all.at(-1)!;

    // A worker that answers the ping: kept.
    expect(lab.start()).toBe(true);
    expect(useLab.getState().run.phase).toBe('preparing');
    lab.reset();
    const ping = first.sent.find((c): c is Extract<WorkerCommand, { type: 'ping' }> => c.type === 'ping')!;
    expect(first.sent.slice(-2).map((c) => c.type)).toEqual(['stop', 'ping']);
    first.onmessage!({ data: { type: 'pong', id: ping.id } });
    vi.advanceTimersByTime(2 * STUCK_AFTER_MS);
    expect(first.terminated).toBe(false);
    expect(FakeWorker.all).toHaveLength(1);

    // A worker held by a draw that never ends: no answer, so Reset ends it.
    expect(lab.start()).toBe(true);
    lab.reset();
    expect(useLab.getState().run.phase).toBe('idle');
    vi.advanceTimersByTime(STUCK_AFTER_MS - 1);
    expect(first.terminated).toBe(false);
    vi.advanceTimersByTime(1);
    expect(first.terminated).toBe(true);
    expect(FakeWorker.all).toHaveLength(2);
    const fresh = FakeWorker.all[1];
    expect(fresh.sent[0].type).toBe('prepare');
    // The next Start goes to the fresh worker, not the stuck one.
    expect(lab.start()).toBe(true);
    expect(fresh.sent.at(-1)!.type).toBe('start');
    expect(first.sent.filter((c) => c.type === 'start')).toHaveLength(2);
  });
});
