/**
 * Class mode's addresses (roomLink.ts): the default server, a typed one checked, the join link and
 * reading it back, asking before a link's foreign server, and the LAN link of a localhost page.
 */
import { describe, expect, it } from 'vitest';
import { legacySecretsKey, readSecrets, writeSecrets } from '../../room/secrets';
import { memoryStorage } from '../../room/fakeSocket.testkit';
import { checkServerUrl, codeOrigin, defaultPortServer, isLoopbackHost, joinAddress, joinLink, joinParams, linkRole, pageTrusts, sameOriginServer, withoutRoom } from './roomLink';

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
    const server = 'ws://192.168.1.20:8787/room';
    expect(linkRole(search, loc, storage)).toEqual({ kind: 'join', server, role: { kind: 'student', room: ROOM }, ask: false });
    // A student's seat token is not a presenter key.
    writeSecrets(storage, server, ROOM, { seat: { index: 2, token: ROOM } });
    expect(linkRole(search, loc, storage)).toMatchObject({ role: { kind: 'student', room: ROOM } });
    writeSecrets(storage, server, ROOM, { key: ROOM });
    expect(linkRole(search, loc, storage)).toEqual({ kind: 'join', server, role: { kind: 'presenter', room: ROOM }, ask: false });
    // Another room's key, no storage at all, or a damaged entry: a student.
    expect(linkRole(search.replace(ROOM, 'Z' + ROOM.slice(1)), loc, storage)).toMatchObject({ role: { kind: 'student' } });
    expect(linkRole(search, loc, null)).toMatchObject({ role: { kind: 'student' } });
    storage.setItem('cohort-lab:room-secrets:ws://192.168.1.20:8787 ' + ROOM, '{"key": 5');
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

describe('a link naming another server', () => {
  const evil = 'ws://192.168.1.66:8787/room';
  const link = (server: string) => `?room=${ROOM}&server=${encodeURIComponent(server)}`;

  it("asks before a server on another host than the page's; a server on the page's host, any port, is the page's own", () => {
    const storage = memoryStorage();
    expect(linkRole(link(evil), loc, storage)).toEqual({ kind: 'join', server: evil, role: { kind: 'student', room: ROOM }, ask: true });
    expect(linkRole(link('ws://192.168.1.20:9000/room'), loc, storage)).toMatchObject({ ask: false });
    expect(linkRole(`?room=${ROOM}`, loc, storage)).toMatchObject({ ask: false });
    expect(pageTrusts('wss://192.168.1.20/room', loc)).toBe(true);
    expect(pageTrusts('ws://192.168.1.200:8787/room', loc)).toBe(false);
    expect(pageTrusts('ws://localhost:8787/room', loc)).toBe(false);
  });

  it("the teacher's key of the real server makes the page neither present nor skip the question for another server", () => {
    const storage = memoryStorage();
    writeSecrets(storage, 'ws://192.168.1.20:8787/room', ROOM, { key: ROOM });
    expect(linkRole(link(evil), loc, storage)).toEqual({ kind: 'join', server: evil, role: { kind: 'student', room: ROOM }, ask: true });
    // A browser that joined that room on that server before (its student said yes then) is not asked again.
    writeSecrets(storage, evil, ROOM, { seat: { index: 0, token: ROOM } });
    expect(linkRole(link(evil), loc, storage)).toMatchObject({ role: { kind: 'student' }, ask: false });
  });

  it("secrets kept by room id alone go to the page's own default servers only, once", () => {
    const old = JSON.stringify({ key: ROOM });
    const storage = memoryStorage();
    storage.setItem(legacySecretsKey(ROOM), old);
    // Another server named by a link: the old entry is neither used nor moved.
    expect(linkRole(link(evil), loc, storage)).toMatchObject({ role: { kind: 'student' }, ask: true });
    expect(linkRole(link('ws://192.168.1.20:9000/room'), loc, storage)).toMatchObject({ role: { kind: 'student' } });
    expect(storage.getItem(legacySecretsKey(ROOM))).toBe(old);
    // The default port on the page's host: carried over, and the old entry removed.
    expect(linkRole(link('ws://192.168.1.20:8787/room'), loc, storage)).toMatchObject({ role: { kind: 'presenter', room: ROOM } });
    expect(storage.getItem(legacySecretsKey(ROOM))).toBeNull();
    expect(readSecrets(storage, 'ws://192.168.1.20:8787/room', ROOM)).toEqual({ key: ROOM });
    // The page's own origin is the other default.
    const other = memoryStorage();
    other.setItem(legacySecretsKey(ROOM), JSON.stringify({ seat: { index: 3, token: ROOM } }));
    expect(linkRole(`?room=${ROOM}`, loc, other)).toMatchObject({ role: { kind: 'student' }, ask: false });
    expect(readSecrets(other, 'ws://192.168.1.20:5173/room', ROOM)).toEqual({ seat: { index: 3, token: ROOM } });
  });
});

describe("the students' join link of a page on localhost", () => {
  const lan = ['http://192.168.1.20:8787', 'http://10.0.0.5:8787'];

  it('knows loopback hosts', () => {
    for (const h of ['localhost', 'LOCALHOST', 'lab.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ['192.168.1.20', 'localhost.example', '10.0.0.1', '[::2]', '128.0.0.1']) expect(isLoopbackHost(h), h).toBe(false);
  });

  it('uses the first LAN address where the room server serves the page', () => {
    const a = joinAddress('http://localhost:8787/?preset=quick', ROOM, 'ws://localhost:8787/room', lan);
    expect(a).toEqual({ link: `http://192.168.1.20:8787/?room=${ROOM}&server=${encodeURIComponent('ws://192.168.1.20:8787/room')}&preset=quick`, warning: null });
    // A bad or loopback origin from the server is skipped.
    expect(joinAddress('http://127.0.0.1:8787/', ROOM, 'ws://127.0.0.1:8787/room', ['javascript:alert(1)', 'http://127.0.0.1:8787', ...lan]).link).toContain('http://192.168.1.20:8787/?');
  });

  it('warns in words where it cannot: a page of another server (Vite), or no LAN address', () => {
    const vite = joinAddress('http://localhost:5173/', ROOM, 'ws://localhost:8787/room', lan);
    expect(vite.link).toBe(joinLink('http://localhost:5173/', ROOM, 'ws://localhost:8787/room'));
    expect(vite.warning).toBe(
      "This page is open at localhost:5173, a localhost address: students' devices cannot open it. Open the lab at the room server's address, http://192.168.1.20:8787/ (it serves the lab once `npm run build` has run), and create the room there.",
    );
    expect(joinAddress('http://127.0.0.1:8787/', ROOM, 'ws://127.0.0.1:8787/room', []).warning).toMatch(/cannot open it\. Open the lab at this computer's network address/);
    // A LAN page with a localhost server: the page is reachable, the server is not.
    expect(joinAddress('http://192.168.1.20:5173/', ROOM, 'ws://localhost:8787/room', lan).warning).toMatch(/^The room server's address localhost:8787 is this computer only: .*ws:\/\/192\.168\.1\.20:8787\/room/);
  });

  it('leaves a LAN page and server as they are', () => {
    expect(joinAddress('http://192.168.1.20:5173/', ROOM, 'ws://192.168.1.20:8787/room', lan)).toEqual({ link: joinLink('http://192.168.1.20:5173/', ROOM, 'ws://192.168.1.20:8787/room'), warning: null });
  });
});

describe('where a join code is typed', () => {
  it("the room server's own address, from the link's server; the page's without one", () => {
    expect(codeOrigin('http://192.168.1.20:8787/?room=abc&server=ws%3A%2F%2F192.168.1.20%3A8787%2Froom')).toBe('http://192.168.1.20:8787');
    expect(codeOrigin('https://lab.example/?room=abc&server=wss%3A%2F%2Flab.example%2Froom')).toBe('https://lab.example');
    expect(codeOrigin('http://127.0.0.1:4174/?room=abc')).toBe('http://127.0.0.1:4174');
    expect(codeOrigin('not a link')).toBe('');
  });
});
