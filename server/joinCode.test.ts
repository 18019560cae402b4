// A room's join code over HTTP (GET /code/XXXXXX, server.ts): the id of an open or running room,
// in any case with a dash; nothing for a wrong code, a closed room or a code that cannot be one;
// a bounded number of look-ups per address.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinCodeOf } from '../src/room/joinCode';
import { createRoom, startLocalServer, type LocalServer } from './load/harness';

let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ roomDebounceMs: 10 });
});
afterAll(() => local.dispose());

const lookUp = async (code: string) => {
  const res = await fetch(`http://127.0.0.1:${local.server.port}/code/${code}`);
  return { status: res.status, body: (await res.json()) as { room?: string; error?: string }, type: res.headers.get('content-type') };
};

describe('join codes', () => {
  it("finds an open room by its code, typed loosely; refuses a wrong one and a closed room's; a flood is slowed", async () => {
    const { presenter, room } = await createRoom(local.url);
    const code = joinCodeOf(room);
    expect(await lookUp(code)).toEqual({ status: 200, body: { room }, type: 'application/json' });
    expect((await lookUp(`${code.slice(0, 3).toLowerCase()}-${code.slice(3)}`)).body).toEqual({ room });
    const wrong = code === 'AAAAAA' ? 'BBBBBB' : 'AAAAAA';
    expect(await lookUp(wrong)).toEqual({ status: 404, body: { error: 'No open room has this code: check it, or ask for the link.' }, type: 'application/json' });
    expect((await lookUp('ABC0EF')).status).toBe(404); // 0 is no code's character
    presenter.send({ t: 'close' });
    await presenter.waitFor('room', (m) => m.room.status === 'closed');
    expect((await lookUp(code)).status).toBe(404);
    await presenter.close();
    // Ten at once, then about one a second: the rest of a burst is refused.
    const statuses = await Promise.all(Array.from({ length: 12 }, () => lookUp(code).then((r) => r.status)));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
  });
});
