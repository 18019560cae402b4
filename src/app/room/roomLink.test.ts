/** Class mode's addresses (roomLink.ts): the default server, a typed one checked, the join link and reading it back. */
import { describe, expect, it } from 'vitest';
import { writeSecrets } from '../../room/secrets';
import { memoryStorage } from '../../room/fakeSocket.testkit';
import { checkServerUrl, defaultPortServer, joinLink, joinParams, linkRole, sameOriginServer, withoutRoom } from './roomLink';

const loc = { protocol: 'http:', host: '192.168.1.20:5173', hostname: '192.168.1.20', origin: 'http://192.168.1.20:5173', pathname: '/' };
const ROOM = 'AbCdEfGhIjKlMnOpQrStUv';

describe('the room server address', () => {
  it('defaults to the same origin, or the page host at port 8787; wss under https', () => {
    expect(sameOriginServer(loc)).toBe('ws://192.168.1.20:5173/room');
    expect(defaultPortServer(loc)).toBe('ws://192.168.1.20:8787/room');
    expect(defaultPortServer({ ...loc, protocol: 'https:', hostname: 'lab.example' })).toBe('wss://lab.example:8787/room');
  });

  it('takes ws: and wss: URLs only', () => {
    expect(checkServerUrl(' ws://10.0.0.2:8787/room ')).toEqual({ ok: true, value: 'ws://10.0.0.2:8787/room' });
    for (const [bad, why] of [
      ['', 'empty'],
      ['http://10.0.0.2:8787/room', 'ws://'],
      ['javascript:alert(1)', 'ws://'],
      ['ws://user:pw@10.0.0.2/room', 'password'],
      ['ws://10.0.0.2/room#x', 'fragment'],
      ['not a url', 'not a URL'],
      [`ws://a/${'x'.repeat(400)}`, 'longer'],
    ]) {
      const r = checkServerUrl(bad);
      expect(r.ok, bad).toBe(false);
      if (!r.ok) expect(r.problem).toContain(why);
    }
  });
});

describe('the join link', () => {
  it('holds the room, the server and the experiment, and nothing else of the page', () => {
    const link = joinLink('http://192.168.1.20:5173/?backend=wasm&v=1&preset=quick&s=abc&h=xyz&key=secret', ROOM, 'ws://192.168.1.20:8787/room');
    const url = new URL(link);
    expect(url.origin + url.pathname).toBe('http://192.168.1.20:5173/');
    expect([...url.searchParams.keys()]).toEqual(['room', 'server', 'v', 'preset', 's', 'h']);
    expect(url.searchParams.get('server')).toBe('ws://192.168.1.20:8787/room');
    expect(joinParams(url.search, loc)).toEqual({ kind: 'join', room: ROOM, server: 'ws://192.168.1.20:8787/room' });
  });

  it('a link without a server joins the same origin', () => {
    expect(joinParams(`?room=${ROOM}`, loc)).toEqual({ kind: 'join', room: ROOM, server: 'ws://192.168.1.20:5173/room' });
    expect(joinParams('?preset=quick', loc)).toEqual({ kind: 'none' });
  });

  it('a bad room id or server is a notice in words', () => {
    const bad = (search: string) => {
      const r = joinParams(search, loc);
      return r.kind === 'bad' ? r.problem : `not refused: ${r.kind}`;
    };
    expect(bad('?room=short&server=ws://a/room')).toContain('cannot be one');
    expect(bad(`?room=${ROOM.slice(0, 21)}<&server=ws://a/room`)).toContain('cannot be one');
    expect(bad(`?room=${ROOM}&server=https://evil.example/room`)).toContain('ws://');
    expect(bad('?server=ws://a/room')).toContain('no room');
    expect(bad(`?room=${ROOM}&server=https://evil.example/room`)).toContain('The lab works alone');
  });
});

describe("a presenter's reload", () => {
  const search = `?room=${ROOM}&server=${encodeURIComponent('ws://192.168.1.20:8787/room')}&preset=quick`;

  it('presents the room again where this browser holds its presenter key; joins as a student elsewhere', () => {
    const storage = memoryStorage();
    expect(linkRole(search, loc, storage)).toEqual({ kind: 'join', server: 'ws://192.168.1.20:8787/room', role: { kind: 'student', room: ROOM } });
    // A student's seat token is not a presenter key.
    writeSecrets(storage, ROOM, { seat: { index: 2, token: ROOM } });
    expect(linkRole(search, loc, storage)).toMatchObject({ role: { kind: 'student', room: ROOM } });
    writeSecrets(storage, ROOM, { key: ROOM });
    expect(linkRole(search, loc, storage)).toEqual({ kind: 'join', server: 'ws://192.168.1.20:8787/room', role: { kind: 'presenter', room: ROOM } });
    // Another room's key, no storage at all, or a damaged entry: a student.
    expect(linkRole(search.replace(ROOM, 'Z' + ROOM.slice(1)), loc, storage)).toMatchObject({ role: { kind: 'student' } });
    expect(linkRole(search, loc, null)).toMatchObject({ role: { kind: 'student' } });
    storage.setItem(`cohort-lab:room:${ROOM}`, '{"key": 5');
    expect(linkRole(search, loc, storage)).toMatchObject({ role: { kind: 'student' } });
    // Links that are not a room's are what joinParams says.
    expect(linkRole('', loc, storage)).toEqual({ kind: 'none' });
    expect(linkRole('?room=nope', loc, storage)).toMatchObject({ kind: 'bad' });
  });

  it('the address bar after Create holds the join link; Leave takes the room out of it and keeps the rest', () => {
    const link = joinLink('http://192.168.1.20:5173/?preset=quick&backend=wasm#top', ROOM, 'ws://192.168.1.20:8787/room');
    expect(withoutRoom(link)).toBe('http://192.168.1.20:5173/?preset=quick');
    expect(withoutRoom('http://192.168.1.20:5173/lab/?room=x&server=y#a')).toBe('http://192.168.1.20:5173/lab/#a');
  });
});
