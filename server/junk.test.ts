// Untrusted input: whatever a client sends, the server answers with an error in plain words (or
// closes that one connection) and keeps serving everyone else. The rate limit, on a frozen clock so
// that the bucket's count is exact.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOM_LIMITS } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';
import { syntheticRun } from './load/syntheticRun';
import { MAX_PAYLOAD_BYTES } from './server';

let local: LocalServer;
const frozen = Date.now();
beforeAll(async () => {
  // On the frozen clock the address's budget of checking time never refills: the harness gives such
  // a server a burst no test uses up, so the message bucket alone is what the rate-limit tests count
  // (the checking budget's own rows: npm run room -- --attack).
  local = await startLocalServer({ now: () => frozen, roomDebounceMs: 10 });
});
afterAll(() => local.dispose());

const run = syntheticRun(presetSpec('quick'), 2);

/** The server still answers a fresh connection. */
async function stillServing(): Promise<void> {
  const c = await RoomClient.connect(local.url);
  c.send({ t: 'ping' });
  await c.waitFor('pong');
  await c.close();
}

describe('junk frames', () => {
  it('answers non-JSON, binary, wrong types and unknown messages with bad-message', async () => {
    const c = await RoomClient.connect(local.url);
    const cases: (string | Buffer)[] = [
      'hello',
      '{"t":"ping"',
      Buffer.from([1, 2, 3, 0xff]),
      'null',
      '42',
      '[{"t":"ping"}]',
      '{"t":"teleport"}',
      '{}',
      '{"t":"event","seq":"0","event":{}}',
      '{"t":"event","seq":-1,"event":{"type":"base","members":[],"base":[],"baseKappa":[]}}',
      '{"t":"join","v":1,"room":"../../etc/passwd","seat":null}',
      '{"t":"create","v":1,"name":"x","preset":null,"spec":{},"baseSeed":1,"pairing":false}',
    ];
    for (const junk of cases) c.sendRaw(junk);
    // Frames are answered in order: once the pong is in, every junk frame has been answered.
    c.send({ t: 'ping' });
    await c.waitFor('pong');
    const errors = c.messages.filter((m) => m.t === 'error');
    expect(errors.length).toBe(cases.length);
    expect(errors.every((m) => m.t === 'error' && m.code === 'bad-message' && m.message.length > 5)).toBe(true);
    expect(errors[2].t === 'error' && errors[2].message).toMatch(/binary/);
    await c.close();
  });

  it('says too-large for a frame over the limit and closes a connection whose frame is huge', async () => {
    const c = await RoomClient.connect(local.url);
    c.sendRaw(JSON.stringify({ t: 'ping', pad: 'x'.repeat(ROOM_LIMITS.frameChars) }));
    expect((await c.waitFor('error')).code).toBe('too-large');
    c.sendRaw('x'.repeat(MAX_PAYLOAD_BYTES + 10));
    expect((await c.closed).code).toBe(1009);
    await stillServing();
  });

  it('says version to a page of another protocol version', async () => {
    const c = await RoomClient.connect(local.url);
    c.sendRaw(JSON.stringify({ t: 'join', v: 2, room: 'A'.repeat(22), seat: null }));
    const e = await c.waitFor('error');
    expect(e.code).toBe('version');
    expect(e.message).toMatch(/reload the page/);
    await c.close();
  });

  it('refuses a __proto__ key anywhere: no pollution, nothing stored under one', async () => {
    const c = await RoomClient.connect(local.url);
    const refusal = { code: 'bad-message', message: 'no key of a message may be named __proto__' };
    c.sendRaw('{"t":"ping","__proto__":{"polluted":true}}');
    expect(await c.waitFor('error')).toMatchObject(refusal);
    c.sendRaw('{"t":"join","v":1,"room":"AAAAAAAAAAAAAAAAAAAAAA","seat":null,"__proto__":{"t":"create"}}');
    expect(await c.waitFor('error', () => true, { after: 1 })).toMatchObject(refusal);
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    // A member record keyed "__proto__": copied into a new record by the schema it would set the
    // record's prototype (the member vanishing unseen, the event acked without it): refused.
    const step = structuredClone(run[1]) as any;
    const arm = step.arms[0];
    arm.members = JSON.parse(`{"__proto__": ${JSON.stringify(Object.values(arm.members)[0])}}`);
    s.client.send({ t: 'event', seq: 0, event: run[0] });
    await s.client.waitFor('ack', (m) => m.seq === 0);
    s.client.sendRaw(JSON.stringify({ t: 'event', seq: 1, event: step }));
    expect(await s.client.waitFor('error')).toMatchObject(refusal);
    expect(await local.server.store.countEvents(room, 0)).toBe(1);
    expect(({} as any).polluted).toBeUndefined();
    expect(({} as any).reward).toBeUndefined();
    await Promise.all([c, presenter, s.client].map((x) => x.close()));
  });

  it('refuses a streamed step that carries rollout samples', async () => {
    const { presenter, room } = await createRoom(local.url);
    const s = await joinRoom(local.url, room);
    const step = structuredClone(run[1]) as any;
    step.samples = [{ armId: 'self', prompt: '1+2', truth: '3', members: [] }];
    s.client.sendRaw(JSON.stringify({ t: 'event', seq: 0, event: step }));
    expect((await s.client.waitFor('error')).message).toMatch(/no rollout samples/);
    await Promise.all([presenter, s.client].map((x) => x.close()));
  });
});

describe('rate limit', () => {
  it('drops what is over the burst with rate-limited, closes a connection that keeps on, and serves the others', async () => {
    const flood = await RoomClient.connect(local.url, { check: false });
    // The clock is frozen (no refill): exactly the burst gets through, the rest is dropped with one note.
    for (let i = 0; i < ROOM_LIMITS.messageBurst + 20; i++) flood.send({ t: 'ping' });
    await flood.waitFor('pong', () => flood.messages.filter((m) => m.t === 'pong').length === ROOM_LIMITS.messageBurst);
    await flood.waitFor('error');
    expect(flood.messages.filter((m) => m.t === 'error').map((m) => m.t === 'error' && m.code)).toEqual(['rate-limited']);
    // Going on regardless: the connection is closed.
    for (let i = 0; i < ROOM_LIMITS.messageBurst; i++) flood.send({ t: 'ping' });
    expect((await flood.closed).code).toBe(1008);
    expect(flood.messages.filter((m) => m.t === 'pong').length).toBe(ROOM_LIMITS.messageBurst);
    await stillServing();
  });
});

describe('rate limit over time', () => {
  it('forgets old drops: a client that overshoots now and then, and slows down each time, is never closed', async () => {
    let clock = Date.now();
    const own = await startLocalServer({ now: () => clock, limits: { handshakeMs: 600_000 } });
    try {
      const c = await RoomClient.connect(own.url, { check: false, keep: false });
      let pongs = 0;
      c.on((m) => void (m.t === 'pong' && pongs++));
      // 25 rounds of 20 drops each: 500 drops in all, more than the 400 that close a connection at once.
      for (let round = 0; round < 25; round++) {
        const before = pongs;
        for (let i = 0; i < ROOM_LIMITS.messageBurst + 20; i++) c.send({ t: 'ping' });
        await c.waitAny(() => pongs - before === ROOM_LIMITS.messageBurst);
        clock += 10_000;
      }
      c.send({ t: 'ping' });
      await c.waitFor('pong', () => pongs === 25 * ROOM_LIMITS.messageBurst + 1);
      await c.close();
    } finally {
      await own.dispose();
    }
  });
});
