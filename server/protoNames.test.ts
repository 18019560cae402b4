// Every name Object.prototype has, sent as every id a client chooses (the room, the seat's token,
// an arm, a member, an answer's kind) to the real server process: a record keyed by data that was
// a plain object would find `constructor` there already. Each is refused or handled as any other
// name, no handler fails (the server logs "error handling" when one does), and the process lives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExperimentSpec } from '../src/core/experiment/spec';
import { ROOM_PROTOCOL_VERSION, streamedEvent } from '../src/room/protocol';
import { presetSpec } from './load/harness';
import { firstPeerArm, peerLevels, seatTrainSpec } from '../src/room/levels';
import { syntheticRun } from './load/syntheticRun';
import { attackerRoom, attackerSeat, createMsg, joinMsg, raw, settled, type Raw } from './attack/tools';
import { startTarget, type Target } from './attack/target';

const NAMES = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable', 'toLocaleString', '__proto__'];

let t: Target;
beforeAll(async () => {
  t = await startTarget();
});
afterAll(() => t.stop());

/** `spec` with its first member and first arm renamed `name`. */
function renamed(spec: ExperimentSpec, name: string): ExperimentSpec {
  const old = spec.members[0].id;
  return {
    ...spec,
    members: spec.members.map((m, i) => (i === 0 ? { ...m, id: name } : m)),
    arms: spec.arms.map((a, i) => ({ ...a, id: i === 0 ? name : a.id, members: a.members.map((m) => (m === old ? name : m)), ...('teacher' in a && a.teacher === old ? { teacher: name } : {}) })),
  };
}

/** The reply to `m` on `r`: the first message of type `t` or an error after it was sent. */
async function reply(r: Raw, m: unknown, ...types: string[]): Promise<string> {
  const n = r.got.length;
  r.send(m);
  const got = await r.waitFor((x) => r.got.indexOf(x) >= n && (x.t === 'error' || types.includes(x.t)));
  return got ? (got.t === 'error' ? `error ${got.code}` : got.t) : 'no answer';
}

describe("Object.prototype's names as ids, against the real server process", () => {
  const spec = { ...presetSpec('quick'), steps: 20 };
  for (const [k, name] of NAMES.entries()) {
    it(`${name}: as a room, a token, an arm, a member and a kind`, async () => {
      const from = (n: number) => `127.8.${k + 1}.${n}`;
      const results: Record<string, string> = {};
      const c = await raw(t.url, from(1));
      if (!c) throw new Error('connection refused');
      results.room = await reply(c, joinMsg(name), 'seat');
      results.present = await reply(c, { t: 'present', v: ROOM_PROTOCOL_VERSION, room: name, key: name }, 'room');
      // A real room, then this name as the seat's token, an arm and a member of a step, and an answer's kind.
      const { room, presenter } = await attackerRoom(t.url, from(2), spec, true);
      results.token = await reply(c, joinMsg(room, { index: 0, token: name }), 'seat');
      const seat = await attackerSeat(t.url, from(3), room);
      await attackerSeat(t.url, from(4), room);
      // The seat's own run: its member of the room's peer arm (seat 0: the arm's first).
      const run = syntheticRun(seatTrainSpec(spec, { level: peerLevels(spec)[0], member: firstPeerArm(spec)!.members[seat.index & 1] }), 100 + seat.index).map(streamedEvent);
      results.base = await reply(seat.s, { t: 'event', seq: 0, event: run[0] }, 'ack');
      const step = structuredClone(run[1]) as Extract<(typeof run)[number], { type: 'step' }>;
      const member = Object.keys(step.arms[0].members)[0];
      const asArm = structuredClone(step);
      asArm.arms[0].armId = name;
      results.arm = await reply(seat.s, { t: 'event', seq: 1, event: asArm }, 'ack');
      const asMember = structuredClone(step);
      Object.defineProperty(asMember.arms[0].members, name, { value: asMember.arms[0].members[member], enumerable: true });
      results.member = await reply(seat.s, JSON.parse(JSON.stringify({ t: 'event', seq: 1, event: asMember })), 'ack');
      results.kind = await reply(seat.s, { t: 'exchange', step: 1, kind: name, answers: [] }, 'ack');
      results.honest = await reply(seat.s, { t: 'event', seq: 1, event: step }, 'ack');
      // A room whose experiment names a member and an arm so (refused by the spec's id pattern, or run as any other).
      const own = renamed(spec, name);
      const creator = await raw(t.url, from(5));
      results.spec = await reply(creator!, createMsg(own), 'created');
      if (results.spec === 'created') {
        const created = creator!.got.find((m) => m.t === 'created');
        const s = await attackerSeat(t.url, from(6), created!.t === 'created' ? created!.room : '');
        const theirs = syntheticRun(own, 100 + s.index).map(streamedEvent);
        results.specBase = await reply(s.s, { t: 'event', seq: 0, event: theirs[0] }, 'ack');
        results.specStep = await reply(s.s, { t: 'event', seq: 1, event: theirs[1] }, 'ack');
        s.s.close();
      }
      expect(await settled(c)).toBe(true);
      for (const r of [c, presenter, seat.s, creator]) r?.close();
      expect(t.alive()).toBe(true);
      expect(t.output()).not.toMatch(/error handling a/);
      // Refused as names of nothing, or handled as any other name; never a server error.
      expect(results.room).toMatch(/^error (no-such-room|bad-message)$/);
      expect(results.present).toMatch(/^error (no-such-room|bad-message)$/);
      expect(results.token).toMatch(/^error (not-allowed|bad-message|seat-in-use)$/);
      expect(results.base).toBe('ack');
      expect(results.arm).toMatch(/^error (not-allowed|bad-message)$/);
      expect(results.member).toMatch(/^error (not-allowed|bad-message)$/);
      expect(results.kind).toBe('error bad-message');
      expect(results.honest).toBe('ack');
      if (name === '__proto__') expect(results.spec).toBe('error bad-message');
      else expect({ spec: results.spec, base: results.specBase, step: results.specStep }).toEqual({ spec: 'created', base: 'ack', step: 'ack' });
    });
  }
});
