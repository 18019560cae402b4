// The students' class feed under its byte budget: every classmate's events arrive, contiguous and
// once each, in batches no larger than the budget allows, with every classmate advancing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET } from '../src/core/experiment/presets';
import type { ServerMessage } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, startLocalServer, type LocalServer } from './load/harness';
import { syntheticRun } from './load/syntheticRun';

const BUDGET = 40_000;
let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ feedMs: 20, feedBytesPerSecond: BUDGET, roomDebounceMs: 10 });
});
afterAll(() => local.dispose());

describe('class feed', () => {
  it('delivers all of every classmate, in contiguous batches within the budget', async () => {
    const spec = presetSpec(DEFAULT_PRESET);
    const run = syntheticRun(spec, 5).slice(0, 16);
    const { presenter, room } = await createRoom(local.url, { spec });
    const watcher = await joinRoom(local.url, room);
    const writers = [await joinRoom(local.url, room), await joinRoom(local.url, room)];
    for (const w of writers) run.forEach((e, i) => w.client.send({ t: 'event', seq: i, event: e }));
    for (const w of writers) await w.client.waitFor('ack', (m) => m.seq === run.length - 1);
    const total = JSON.stringify(run).length;
    // The two classmates hold more than the two seconds of budget the watcher starts with: it binds.
    expect(2 * total).toBeGreaterThan(2 * BUDGET);

    const batches = () => watcher.client.messages.filter((m): m is Extract<ServerMessage, { t: 'events' }> => m.t === 'events');
    const got = (seat: number) => batches().filter((m) => m.seat === seat);
    await watcher.client.waitFor('events', () => [1, 2].every((s) => got(s).reduce((n, m) => n + m.events.length, 0) === run.length));
    for (const seat of [1, 2]) {
      let next = 0;
      for (const m of got(seat)) {
        expect(m.from).toBe(next);
        next += m.events.length;
      }
      expect(got(seat).flatMap((m) => m.events)).toEqual(run);
    }
    // No batch is over the two seconds the budget saves up (plus the one event a seat always gets).
    const biggest = Math.max(...batches().map((m) => JSON.stringify(m.events).length));
    expect(biggest).toBeLessThanOrEqual(2 * BUDGET + 6000);
    // Both classmates advanced from the first batch on: neither waited for the other to finish.
    const firstOf = (seat: number) => batches().findIndex((m) => m.seat === seat);
    expect(Math.max(firstOf(1), firstOf(2))).toBeLessThan(2);
    expect(got(1).length).toBeGreaterThan(1);
    await Promise.all([presenter, watcher.client, ...writers.map((w) => w.client)].map((c) => c.close()));
  });
});
