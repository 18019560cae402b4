// The operator's log under a flood: lines about one address are capped per window, the server's
// own lines never are, and what was left out is counted when the window ends. Then the real
// server: one address sending wrong room keys as fast as its budgets allow.
import { afterEach, describe, expect, it } from 'vitest';
import { ROOM_PROTOCOL_VERSION } from '../src/room/protocol';
import { LogLimiter } from './logLimit';
import { createRoom, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';

describe('LogLimiter', () => {
  it('prints at most perAddress lines about an address a window, then how many it left out', () => {
    let t = 0;
    const out: string[] = [];
    const log = new LogLimiter((l) => out.push(l), { perAddress: 2, total: 3, windowMs: 10_000 }, () => t);
    for (let i = 0; i < 5; i++) log.line(`bad key ${i}`, '10.0.0.7');
    log.line('bad key from another', '10.0.0.8');
    log.line('bad key from a third', '10.0.0.9'); // over the total of 3
    log.line('sweep: deleted 1 room'); // the server's own: always
    expect(out).toEqual(['bad key 0', 'bad key 1', 'bad key from another', 'sweep: deleted 1 room']);
    t = 10_000;
    log.line('bad key 5', '10.0.0.7'); // a new window: the old one's summary first
    expect(out.slice(4)).toEqual([
      'log: 3 more lines about 10.0.0.7 left out in the last 10 s (at most 2 per address every 10 s)',
      'log: 1 more line about 10.0.0.9 left out in the last 10 s (at most 2 per address every 10 s)',
      'bad key 5',
    ]);
    log.endWindow();
    expect(out.length).toBe(7);
  });

  it('names the five addresses that lost most and counts the rest together', () => {
    const out: string[] = [];
    const log = new LogLimiter((l) => out.push(l), { perAddress: 0, total: 100, windowMs: 1000 }, () => 0);
    for (let a = 1; a <= 8; a++) for (let i = 0; i < a; i++) log.line('x', `10.0.0.${a}`);
    log.endWindow();
    expect(out[0]).toMatch(/^log: 8 more lines about 10\.0\.0\.8/);
    expect(out.length).toBe(6);
    expect(out[5]).toBe('log: 6 more lines about 3 other addresses left out in the last 1 s');
  });
});

let local: LocalServer | null = null;
afterEach(async () => {
  await local?.dispose();
  local = null;
});

describe('the server under a flood of wrong guesses', () => {
  it('logs at most logLinesPerAddress lines about the guessing address, then the count left out', async () => {
    const lines: string[] = [];
    local = await startLocalServer({ log: (l) => lines.push(l), limits: { logLinesPerAddress: 4, logWindowMs: 60_000 } });
    const { presenter, room, key } = await createRoom(local.url);
    const guesser = await RoomClient.connect(local.url, { check: false, from: '127.0.0.9' });
    const wrong = (i: number) => key.slice(0, -2) + (key.endsWith('AA') ? 'B' : 'A') + String.fromCharCode(65 + i);
    for (let i = 0; i < 12; i++) guesser.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key: wrong(i) });
    guesser.send({ t: 'ping' });
    await guesser.waitFor('pong');
    const refused = guesser.messages.filter((m) => m.t === 'error' && /presenter key/.test(m.message)).length;
    expect(refused).toBe(12);
    expect(lines.filter((l) => l.includes('127.0.0.9')).length).toBe(4);
    await guesser.close();
    await local.dispose();
    local = null;
    expect(lines.at(-1)).toMatch(/^log: 8 more lines about 127\.0\.0\.9 left out in the last \d+ s/);
    await presenter.close().catch(() => undefined);
  });
});
