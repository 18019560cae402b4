// The wire protocol's schemas: every message survives JSON both ways, and what breaks a rule is
// refused with a message that names where (never a throw).
import { describe, expect, it } from 'vitest';
import { getPreset } from '../core/experiment/presets';
import { ROOM_LIMITS, ROOM_PROTOCOL_VERSION, frameShapeProblem, parseClientMessage, parseServerMessage, type ClientMessage, type RoomInfo, type SeatEvent, type ServerMessage } from './protocol';

const spec = getPreset('quick')!.spec;
const id = 'AbCdEfGhIjKlMnOpQrStUv';
const base: SeatEvent = { type: 'base', members: [{ id: 'A', family: 'mlp', params: 1000, label: 'mlp' }], base: [{ memberId: 'A', passAt1: 0.5, majAtG: 0.7 }], baseKappa: [] };
const step: SeatEvent = { type: 'step', step: 1, steps: 6, arms: [], samples: [], stepMs: 80, tokens: 900 };
const room: RoomInfo = {
  id,
  name: 'Class',
  preset: 'quick',
  spec,
  baseSeed: 1,
  pairing: true,
  status: 'open',
  locked: false,
  expiresAt: 1_800_000_000_000,
  seats: [{ index: 0, seed: 1, member: 'A', partner: null, connected: true, events: 0, lastStep: 0, done: false }],
};

const CLIENT: ClientMessage[] = [
  { t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'Class', preset: null, spec, baseSeed: 7, pairing: false },
  { t: 'present', v: ROOM_PROTOCOL_VERSION, room: id, key: id },
  { t: 'join', v: ROOM_PROTOCOL_VERSION, room: id, seat: null },
  { t: 'join', v: ROOM_PROTOCOL_VERSION, room: id, seat: { index: 3, token: id } },
  { t: 'start' },
  { t: 'close' },
  { t: 'event', seq: 0, event: base },
  { t: 'event', seq: 1, event: step },
  { t: 'exchange', step: 2, kind: 'train', answers: [['1', null]] },
  { t: 'ping' },
];

const SERVER: ServerMessage[] = [
  { t: 'created', room: id, key: id },
  { t: 'room', room },
  { t: 'seat', seat: room.seats[0], token: id, stored: 4 },
  { t: 'ack', seq: 5 },
  { t: 'events', seat: 2, from: 0, events: [base, step] },
  { t: 'exchange', step: 2, kind: 'eval', answers: [] },
  { t: 'error', code: 'out-of-order', message: 'resend from 3' },
  { t: 'pong' },
];

describe('room protocol', () => {
  it('reads back every message it writes', () => {
    for (const m of CLIENT) expect(parseClientMessage(JSON.stringify(m))).toEqual({ ok: true, message: m });
    for (const m of SERVER) expect(parseServerMessage(JSON.stringify(m))).toEqual({ ok: true, message: m });
  });

  it('refuses what breaks a rule, saying where', () => {
    const refused = (frame: string) => {
      const r = parseClientMessage(frame);
      expect(r.ok, frame.slice(0, 80)).toBe(false);
      return r.ok ? '' : `${r.code}: ${r.message}`;
    };
    expect(refused('x'.repeat(ROOM_LIMITS.frameChars + 1))).toMatch(/^too-large/);
    expect(refused('{"t":')).toMatch(/^bad-message: a message is one JSON object/);
    expect(refused('{"t":"fly"}')).toMatch(/^bad-message/);
    expect(refused(JSON.stringify({ ...CLIENT[1], v: 2 }))).toMatch(/^bad-message: v/);
    expect(refused(JSON.stringify({ ...CLIENT[1], key: 'short' }))).toMatch(/key/);
    expect(refused(JSON.stringify({ ...CLIENT[3], seat: { index: ROOM_LIMITS.seats, token: id } }))).toMatch(/seat\.index/);
    expect(refused(JSON.stringify({ t: 'event', seq: ROOM_LIMITS.eventsPerSeat, event: step }))).toMatch(/seq/);
    expect(refused(JSON.stringify({ t: 'event', seq: 1, event: { ...step, samples: [{ armId: 'x', prompt: '1', truth: '1', members: [] }] } }))).toMatch(/no rollout samples/);
    expect(refused(JSON.stringify({ t: 'exchange', step: 1, kind: 'train', answers: [['x'.repeat(ROOM_LIMITS.answerChars + 1)]] }))).toMatch(/answers/);
    expect(refused(JSON.stringify({ t: 'exchange', step: 1, kind: 'both', answers: [] }))).toMatch(/kind/);
    expect(refused(JSON.stringify({ ...CLIENT[0], name: '' }))).toMatch(/name/);
    expect(parseServerMessage(JSON.stringify({ t: 'room', room: { ...room, seats: Array(ROOM_LIMITS.seats + 1).fill(room.seats[0]) } })).ok).toBe(false);
    expect(parseServerMessage(JSON.stringify({ t: 'error', code: 'oops', message: '' })).ok).toBe(false);
  });

  it('bounds a client frame before the schema: the 20,000-key record that overflowed the stack is refused, never thrown', () => {
    const members: Record<string, object> = {};
    for (let i = 0; i < 20_000; i++) members[`k${i}`] = {};
    const crafted = JSON.stringify({ t: 'event', seq: 0, event: { ...step, arms: [{ armId: 'a', scheme: 'self', members, pairs: [] }] } });
    expect(crafted.length).toBeLessThan(ROOM_LIMITS.frameChars);
    expect(parseClientMessage(crafted)).toMatchObject({ ok: false, code: 'too-large', message: expect.stringMatching(/at most 64 keys/) });
    const deep = '{"t":"ping","x":' + '['.repeat(50_000) + ']'.repeat(50_000) + '}';
    expect(parseClientMessage(deep)).toMatchObject({ ok: false, message: expect.stringMatching(/nests at most 12 deep/) });
    expect(parseClientMessage(JSON.stringify({ t: 'ping', pad: Array(20).fill(0) }))).toMatchObject({ ok: false, message: expect.stringMatching(/"ping" message has at most 16 values/) });
    const answers = Array.from({ length: 10 }, () => ['1', 2]);
    expect(parseClientMessage(JSON.stringify({ t: 'exchange', step: 1, kind: 'train', answers }))).toMatchObject({ ok: false, message: expect.stringMatching(/^answers: a list/) });
    expect(frameShapeProblem(JSON.parse(JSON.stringify(CLIENT[0])))).toBeNull();
  });

  it('refuses a key named __proto__ anywhere, escaped or not (copied into a record, it would set the prototype)', () => {
    for (const key of ['__proto__', '\\u005f_proto__']) {
      const frame = `{"t":"event","seq":1,"event":{"type":"step","arms":[{"members":{"${key}":{"reward":1}}}]}}`;
      expect(parseClientMessage(frame)).toEqual({ ok: false, code: 'bad-message', message: 'no key of a message may be named __proto__' });
    }
  });
});
