/**
 * Test kit for the page's room client against the real room server in this process
 * (server/load/harness.ts): one server per test, the page's RoomConnection over `ws` where the page
 * injects the browser's WebSocket, and everything closed after each test. (Test code only; the
 * page never loads it.)
 */
import { afterEach } from 'vitest';
import { WebSocket } from 'ws';
import { startLocalServer, type LocalServer } from '../../server/load/harness';
import { RoomConnection, type RoomRole, type SocketLike } from './client';
import { memoryStorage } from './fakeSocket.testkit';

type ServerOptions = Parameters<typeof startLocalServer>[0];

/** Call at a test file's top level: registers the clean-up, returns the server's starter and a page's connect. */
export function realRoomServer() {
  let local: LocalServer | null = null;
  const open: RoomConnection[] = [];
  afterEach(async () => {
    for (const c of open.splice(0)) c.close();
    await local?.dispose();
    local = null;
  });
  return {
    /** A fresh server for this test (rooms debounced 10 ms, quiet log unless the test says). */
    async start(options: ServerOptions = {}): Promise<LocalServer> {
      local = await startLocalServer({ roomDebounceMs: 10, log: () => {}, ...options });
      return local;
    },
    /** A page's connection to `url` as `role`, closed after the test. */
    connect(url: string, role: RoomRole, storage = memoryStorage()): RoomConnection {
      const c = new RoomConnection({ url, role, socket: (u) => new WebSocket(u, { perMessageDeflate: false }) as unknown as SocketLike, storage, random: () => 0.5 });
      open.push(c);
      return c;
    },
  };
}

/** Wait until `ok()` holds (checked every 20 ms), or fail saying what was awaited after `ms`: by default a minute, a bound that only stops a hung test. */
export async function until(what: string, ok: () => boolean, ms = 60_000): Promise<void> {
  const t0 = Date.now();
  while (!ok()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
