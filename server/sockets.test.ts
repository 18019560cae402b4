// What a device holds before and between messages: plain TCP sockets counted per address at
// accept (and on the whole server), a socket that never sends a whole request, a message left
// unfinished or cut into too many fragments, and pongs sent unasked. Budgets are scaled down
// (limits) so that a test opens tens of sockets, not a thousand.
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startLocalServer, type LocalServer } from './load/harness';
import { FrameCounter } from './frameGate';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Poll the server's own count until `ok`; fails after a minute, a bound that only stops a hung test. */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; !ok(); i++) {
    if (i >= 3000) throw new Error('the server never reached the state waited for');
    await sleep(20);
  }
}
let local: LocalServer | null = null;
const lines: string[] = [];
const opened: net.Socket[] = [];
afterEach(async () => {
  for (const s of opened.splice(0)) s.destroy();
  await local?.dispose();
  local = null;
  lines.length = 0;
});

async function start(limits: Parameters<typeof startLocalServer>[0] = {}): Promise<LocalServer> {
  local = await startLocalServer({ log: (l) => lines.push(l), feedMs: 100, ...limits });
  return local;
}

/** A plain TCP socket from `from` that sends nothing; resolves once connected, with a flag set when the server closes it. */
function tcp(port: number, from: string): Promise<{ s: net.Socket; closed: () => boolean; gone: Promise<void> }> {
  return new Promise((done, fail) => {
    let closed = false;
    const s = net.connect({ host: '127.0.0.1', port, localAddress: from });
    opened.push(s);
    const gone = new Promise<void>((r) => s.once('close', () => ((closed = true), r())));
    s.on('error', () => {});
    s.once('connect', () => done({ s, closed: () => closed, gone }));
    // A bound that only stops a hung test: a loopback connect is answered at once, by the kernel.
    setTimeout(() => fail(new Error('no connect')), 60_000);
  });
}

function ws(url: string, from: string, o: { autoPong?: boolean } = {}): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const w = new WebSocket(url, { localAddress: from, autoPong: o.autoPong ?? true });
    w.on('error', fail);
    w.once('open', () => done(w));
  });
}

describe('sockets counted at accept', () => {
  it('closes the sockets of one address beyond its budget at once, logs it within the log budget, and lets another address in', async () => {
    // socketsPerAddress is at least connectionsPerAddress + 16: 17 here.
    const { server, url } = await start({ limits: { connectionsPerAddress: 1, socketsPerAddress: 1, logLinesPerAddress: 3 } });
    const socks = [];
    for (let i = 0; i < 25; i++) socks.push(await tcp(server.port, '127.0.0.2'));
    // The 8 past the budget are closed (waited for as events); the first 17 stay open.
    await Promise.all(socks.slice(17).map((s) => s.gone));
    expect(socks.filter((s) => s.closed()).length).toBe(8);
    expect(server.sockets()).toBe(17);
    const about = lines.filter((l) => l.includes('127.0.0.2'));
    expect(about.length).toBe(3);
    expect(about[0]).toMatch(/closed a socket from 127\.0\.0\.2 at once: at most 17 sockets from one address/);
    const student = await ws(url, '127.0.0.3');
    expect(student.readyState).toBe(WebSocket.OPEN);
    student.close();
  });

  it('holds the whole server to `sockets`, counting a closed socket out again', async () => {
    const { server, url } = await start({ limits: { sockets: 10 } });
    const socks = [];
    for (let i = 0; i < 12; i++) socks.push(await tcp(server.port, `127.0.1.${1 + (i % 4)}`));
    await Promise.all(socks.slice(10).map((s) => s.gone));
    expect(socks.filter((s) => s.closed()).length).toBe(2);
    socks[0].s.destroy();
    await until(() => server.sockets() === 9);
    const student = await ws(url, '127.0.1.9');
    expect(student.readyState).toBe(WebSocket.OPEN);
    student.close();
  });

  it('closes a socket that has not sent a whole request within upgradeMs (a slow header, or nothing)', async () => {
    const { server } = await start({ limits: { upgradeMs: 300 } });
    const silent = await tcp(server.port, '127.0.0.4');
    const slow = await tcp(server.port, '127.0.0.4');
    slow.s.write('GET /room HTTP/1.1\r\nHost: x\r\n');
    const drip = setInterval(() => slow.s.write('X-a: b\r\n'), 50);
    // Both closed although the slow one keeps sending (had it not been, this would wait forever).
    await Promise.all([silent.gone, slow.gone]);
    clearInterval(drip);
    await until(() => server.sockets() === 0);
    expect(lines.some((l) => /no whole request within 0\.3 s/.test(l))).toBe(true);
  });
});

describe('unfinished messages and the heartbeat', () => {
  it('counts the frames of a message across chunks, skipping payloads and control frames', () => {
    // A masked text frame without FIN ("ab"), a ping between fragments, a continuation with FIN;
    // then a 300-byte frame (16-bit length) split inside its header and its payload.
    const frame = (b0: number, payload: Buffer) => {
      const len = payload.length;
      const head = len < 126 ? Buffer.from([b0, 0x80 | len]) : Buffer.from([b0, 0x80 | 126, len >> 8, len & 0xff]);
      return Buffer.concat([head, Buffer.alloc(4), payload]);
    };
    const wire = Buffer.concat([frame(0x01, Buffer.from('ab')), frame(0x89, Buffer.from('p')), frame(0x80, Buffer.from('c')), frame(0x81, Buffer.alloc(300, 0x20))]);
    const f = new FrameCounter(2);
    const first = wire.length - 300 - 3;
    expect(f.feed(wire.subarray(0, 8))).toBe(true);
    expect(f.unfinished).toBe(true);
    expect(f.fragments).toBe(1);
    expect(f.feed(wire.subarray(8, first))).toBe(true);
    expect(f.fragments).toBe(0);
    expect(f.unfinished).toBe(true); // the 300-byte frame's header has begun
    expect(f.feed(wire.subarray(first, wire.length - 1))).toBe(true);
    expect(f.unfinished).toBe(true);
    expect(f.feed(wire.subarray(wire.length - 1))).toBe(true);
    expect(f.unfinished).toBe(false);
    // Three frames of one message, against a bound of 2.
    expect(new FrameCounter(2).feed(Buffer.concat([frame(0x01, Buffer.from('a')), frame(0x00, Buffer.from('b')), frame(0x80, Buffer.from('c'))]))).toBe(false);
  });

  it('cuts a message left unfinished for messageMs', async () => {
    const { url } = await start({ limits: { messageMs: 400 } });
    const c = await ws(url, '127.0.0.6');
    const closed = new Promise<number>((r) => c.once('close', (code) => r(code)));
    const t0 = Date.now();
    c.send('{"t":"pi', { fin: false });
    await closed;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
    expect(lines.some((l) => /a message unfinished after 0\.4 s/.test(l))).toBe(true);
  });

  it('cuts a message in more than messageFragments fragments at once, and answers one in fewer', async () => {
    const { url } = await start({ limits: { messageFragments: 4 } });
    const ok = await ws(url, '127.0.0.7');
    const answered = new Promise<string>((r) => ok.once('message', (d) => r(String(d))));
    for (const part of ['{"t":', '"pi', 'ng"', '}']) ok.send(part, { fin: part === '}' });
    expect(JSON.parse(await answered)).toEqual({ t: 'pong' });
    ok.close();
    const c = await ws(url, '127.0.0.7');
    const closed = new Promise<number>((r) => c.once('close', (code) => r(code)));
    for (let i = 0; i < 10; i++) c.send(' ', { fin: false });
    expect(await closed).toBe(1006);
    expect(lines.some((l) => /a message in more than 4 fragments/.test(l))).toBe(true);
  });

  it('counts only a pong that echoes its ping: unasked pongs do not keep a silent client connected', async () => {
    const { url } = await start({ heartbeatMs: 150 });
    const faker = await ws(url, '127.0.0.8', { autoPong: false });
    const honest = await ws(url, '127.0.0.8');
    const pongs = setInterval(() => faker.readyState === WebSocket.OPEN && faker.pong(Buffer.from('alive')), 30);
    // Cut at a heartbeat although it keeps sending pongs (had it not been, this would wait forever).
    await new Promise((r) => faker.once('close', r));
    clearInterval(pongs);
    expect(honest.readyState).toBe(WebSocket.OPEN);
    honest.close();
  });
});
