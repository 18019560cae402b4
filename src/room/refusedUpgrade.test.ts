/**
 * A connection the real room server refuses on upgrade (HTTP 503: too many connections from this
 * address, server/limits.ts) reaches the page's client as a plain close: the client says the server
 * "refused the connection or could not be reached", backs off, and joins once the address has a
 * connection to spare.
 */
import { describe, expect, it } from 'vitest';
import type { RoomClientEvent } from './client';
import { tinyRoomSpec } from './realRun.testkit';
import { realRoomServer, until } from './realServer.testkit';

const server = realRoomServer();

describe('an upgrade refused with 503 (too many connections from this address)', () => {
  it('is said in words, retried with backoff, and the student joins once a connection is free', async () => {
    const local = await server.start({ limits: { connectionsPerAddress: 1 } });
    const p = server.connect(local.url, { kind: 'presenter', create: { name: 'Class', preset: null, spec: tinyRoomSpec(), baseSeed: 100, pairing: false } });
    await until('the room', () => p.roomId !== null && p.status === 'online');

    const s = server.connect(local.url, { kind: 'student', room: p.roomId! });
    const said: RoomClientEvent[] = [];
    s.subscribe((ev) => said.push(ev));
    await until('three refused tries', () => said.some((e) => e.type === 'status' && /\(3 tries in a row/.test(e.error ?? '')));
    // The backoff's waits (client.test.ts checks them on fake timers): a refused try is not retried at once.
    expect(said.filter((e) => e.type === 'status' && /(try|tries) in a row/.test(e.error ?? '')).map((e) => (e.type === 'status' ? e.error!.match(/about (\d+) s/)![1] : ''))).toEqual(['1', '1', '2']);
    expect(s.status).toBe('offline');
    expect(s.error).toMatch(/^The room server refused the connection or could not be reached \(3 tries in a row; next try in about \d+ s\)$/);

    // The presenter's page leaves: the address has a connection to spare, and the student's next try joins.
    p.close();
    await until('the student seated', () => s.status === 'online' && s.seat?.index === 0);
    expect(s.error).toBeNull();
  });
});
