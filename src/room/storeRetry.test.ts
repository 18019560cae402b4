/**
 * A store failure that is not a full disk: the real room server in this
 * process with one of its store's writes made to fail until the test repairs it. The page's client
 * (client.ts) hears `server-error`, says so, retries with its backoff, and succeeds once the store
 * works again: a failed create, new seat or event is never taken as a refusal (before the code
 * existed the server said `not-allowed`, final before a page is welcomed, and the second refusal
 * of one event stopped the seat's stream for good).
 */
import { describe, expect, it } from 'vitest';
import { presetSpec } from '../../server/load/harness';
import { syntheticRun } from '../../server/load/syntheticRun';
import type { RoomStore } from '../../server/store';
import type { RoomClientEvent } from './client';
import { realRoomServer, until } from './realServer.testkit';

type Write = 'putRoom' | 'putSeat' | 'appendEvent';

/** Every call of the store's `method` fails (nothing is written) until repair(); failures() counts them. */
function breakStore(store: RoomStore, method: Write) {
  let failures = 0;
  (store as unknown as Record<Write, unknown>)[method] = () => {
    failures++;
    return Promise.reject(Object.assign(new Error('IO error: simulated failed write'), { code: 'LEVEL_IO_ERROR' }));
  };
  return {
    failures: () => failures,
    // The own property goes: the class's method is the store's again.
    repair: () => void delete (store as unknown as Record<Write, unknown>)[method],
  };
}

const server = realRoomServer();
const spec = presetSpec('quick');
const create = { name: 'Class', preset: 'quick', spec, baseSeed: 100, pairing: false };

describe('a store that fails and then works again (server-error, not a refusal)', () => {
  it('a create is retried with backoff until the room is made', async () => {
    const local = await server.start();
    const broken = breakStore(local.server.store, 'putRoom');
    const p = server.connect(local.url, { kind: 'presenter', create });
    await until('two failed creates (or the page giving up)', () => broken.failures() >= 2 || p.status === 'closed');
    expect(p.status).toBe('offline');
    expect(p.error).toMatch(/could not store/);
    expect(local.server.hub.roomCount).toBe(0);
    broken.repair();
    await until('the room made', () => p.status === 'online' && p.roomId !== null);
    expect(p.error).toBeNull();
    expect(local.server.hub.roomCount).toBe(1);
  });

  it("a new seat and a seat's event are retried until stored; the stream never stops", async () => {
    const local = await server.start();
    const p = server.connect(local.url, { kind: 'presenter', create });
    await until('the room', () => p.status === 'online' && p.roomId !== null);

    const seatWrite = breakStore(local.server.store, 'putSeat');
    const s = server.connect(local.url, { kind: 'student', room: p.roomId! });
    const said: RoomClientEvent[] = [];
    s.subscribe((ev) => said.push(ev));
    await until('two failed joins (or the page giving up)', () => seatWrite.failures() >= 2 || s.status === 'closed');
    expect(s.status).toBe('offline');
    expect(s.error).toMatch(/could not store/);
    seatWrite.repair();
    await until('the student seated', () => s.status === 'online' && s.seat !== null);
    expect(s.seat!.index).toBe(0);

    // More failures of one event than the page takes from a refusal (seatOutbox.ts REFUSALS_TO_STOP).
    const eventWrite = breakStore(local.server.store, 'appendEvent');
    const run = syntheticRun(spec, 100); // seat 0's seed (baseSeed 100)
    s.pushEvents(0, run);
    await until('three failed writes of event 0 (or the stream stopped)', () => eventWrite.failures() >= 3 || said.some((e) => e.type === 'status' && !e.streaming));
    expect(s.ackedEvents).toBe(0);
    eventWrite.repair();
    await until('every event acknowledged (or the stream stopped)', () => s.ackedEvents === run.length || said.some((e) => e.type === 'status' && !e.streaming));
    expect(said.every((e) => e.type !== 'status' || e.streaming)).toBe(true);
    expect(s.status).toBe('online');
    expect(s.error).toBeNull();
    expect(await local.server.store.countEvents(p.roomId!, 0)).toBe(run.length);
  });
});
