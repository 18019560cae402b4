/**
 * The page's relay API for a member part (trainingWorker.ts): a start with a member part, the
 * worker's exchange requests to the registered handler (not to the store or the saved runs), and
 * the handler's replies back to the worker. Driven with a fake Worker in Node.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkerCommand, WorkerEvent } from '../engine/protocol';

const sent: WorkerCommand[] = [];
class FakeWorker {
  static last: FakeWorker | null = null;
  onmessage: ((e: { data: WorkerEvent }) => void) | null = null;
  onerror: unknown = null;
  onmessageerror: unknown = null;
  constructor() {
    FakeWorker.last = this;
  }
  postMessage(cmd: WorkerCommand) {
    sent.push(structuredClone(cmd));
  }
  terminate() {}
}

const g = globalThis as Record<string, unknown>;
const saved = { Worker: g.Worker, window: g.window };

describe('the page relays a member part’s exchanges', () => {
  let disconnect: () => void = () => {};
  beforeAll(() => {
    g.Worker = FakeWorker;
    g.window = { location: { search: '' } };
  });
  afterAll(() => {
    disconnect();
    g.Worker = saved.Worker;
    g.window = saved.window;
  });

  it('starts a member part, hands exchange requests to the handler only, and sends its replies', async () => {
    const { connectTrainingWorker, lab, observeRuns } = await import('./trainingWorker');
    const observed: string[] = [];
    observeRuns({ started: () => {}, event: (ev) => observed.push(ev.type) });
    disconnect = connectTrainingWorker(null);
    const worker = FakeWorker.last!;

    expect(lab.start({ memberPart: { armId: 'peer', memberId: 'B' } })).toBe(true);
    const start = sent.find((c): c is Extract<WorkerCommand, { type: 'start' }> => c.type === 'start')!;
    expect(start.memberPart).toEqual({ armId: 'peer', memberId: 'B' });
    expect(lab.start()).toBe(true);
    expect('memberPart' in sent.filter((c) => c.type === 'start').at(-1)!).toBe(false);

    const requests: WorkerEvent[] = [];
    lab.setExchangeHandler((req) => requests.push(req));
    const req: WorkerEvent = { type: 'exchange', runId: start.runId, step: 3, kind: 'train', answers: [['4', null]] };
    worker.onmessage!({ data: req });
    expect(requests).toEqual([req]);
    expect(observed).not.toContain('exchange');
    lab.setExchangeHandler(null);
    worker.onmessage!({ data: req }); // nobody relays: dropped
    expect(requests).toHaveLength(1);

    lab.replyExchange({ runId: start.runId, step: 3, kind: 'train', answers: [['5', '5']] });
    expect(sent.at(-1)).toEqual({ type: 'exchange-reply', runId: start.runId, step: 3, kind: 'train', answers: [['5', '5']] });
    observeRuns(null);
  });
});
