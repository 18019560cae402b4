/**
 * A connection the real room server refuses on upgrade (HTTP 503: too many connections from this
 * address, server/limits.ts) reaches the page's client as a plain close: the client says the server
 * "refused the connection or could not be reached", backs off, and joins once the address has a
 * connection to spare (issue 28, the page's side).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startLocalServer, type LocalServer } from '../../server/load/harness';
import { RoomConnection, type RoomClientEvent, type RoomRole, type SocketLike } from './client';
import { memoryStorage } from './fakeSocket.testkit';
import { tinyRoomSpec } from './realRun.testkit';

let local: LocalServer | null = null;
const open: RoomConnection[] = [];

afterEach(async () => {
  for (const c of open.splice(0)) c.close();
  await local?.dispose();
  local = null;
});

function connect(url: string, role: RoomRole): RoomConnection {
  const c = new RoomConnection({ url, role, socket: (u) => new WebSocket(u, { perMessageDeflate: false }) as unknown as SocketLike, storage: memoryStorage(), random: () => 0.5 });
  open.push(c);
  return c;
}

async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('an upgrade refused with 503 (too many connections from this address)', () => {
  it('is said in words, retried with backoff, and the student joins once a connection is free', async () => {
    local = await startLocalServer({ roomDebounceMs: 10, log: () => {}, limits: { connectionsPerAddress: 1 } });
    const p = connect(local.url, { kind: 'presenter', create: { name: 'Class', preset: null, spec: tinyRoomSpec(), baseSeed: 100, pairing: false } });
    await until('the room', () => p.roomId !== null && p.status === 'online');

    const s = connect(local.url, { kind: 'student', room: p.roomId! });
    const said: RoomClientEvent[] = [];
    s.subscribe((ev) => said.push(ev));
    await until('three refused tries', () => said.some((e) => e.type === 'status' && /\(3 tries in a row/.test(e.error ?? '')));
    // The backoff's waits (client.test.ts checks them on fake timers): a refused try is not retried at once.
    expect(said.filter((e) => e.type === 'status' && /(try|tries) in a row/.test(e.error ?? '')).map((e) => (e.type === 'status' ? e.error!.match(/about (\d+) s/)![1] : ''))).toEqual(['1', '1', '2']);
    expect(s.status).toBe('offline');
    expect(s.error).toMatch(/^The room server refused the connection or could not be reached \(3 tries in a row; next try in about \d+ s\)$/);

    // The presenter's page leaves: the address has a connection to spare, and the student's next try joins.
    p.close();
    await until('the student seated', () => s.status === 'online' && s.seat?.index === 0, 20_000);
    expect(s.error).toBeNull();
  });
});
