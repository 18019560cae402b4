/**
 * Paired rooms' glue (pairing.ts) with a fake lab and the real client over a fake socket: the
 * worker's answers go to the room, the partner's come back as the reply, and the page says it
 * waits (and that the partner left) only after a few seconds.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { RoomConnection } from '../../room/client';
import { ROOM_ID, TOKEN, memoryStorage, roomSpec, seatInfo, socketFactory } from '../../room/fakeSocket.testkit';
import type { PartnerWait } from '../store/roomSlice';
import { type ExchangeRequest, PARTNER_WAIT_MS, memberPartOf, relayExchanges, startPairedSeat } from './pairing';

function fakeLab() {
  let handler: ((req: ExchangeRequest) => void) | null = null;
  const replies: ExchangeRequest[] = [];
  return {
    replies,
    ask: (req: ExchangeRequest) => handler?.(req),
    get handler() {
      return handler;
    },
    setExchangeHandler: (h: ((req: ExchangeRequest) => void) | null) => void (handler = h),
    replyExchange: (r: ExchangeRequest) => void replies.push(r),
  };
}

function seatedRoom() {
  const f = socketFactory();
  const c = new RoomConnection({ url: 'ws://x/room', role: { kind: 'student', room: ROOM_ID }, socket: f.make, storage: memoryStorage() });
  f.last.open();
  f.last.server({ t: 'seat', seat: seatInfo(0, { member: 'A', partner: 1 }), token: TOKEN, stored: 0 });
  return { c, f };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('paired seats', () => {
  it("train the peer arm's member their seat names, with the seat's seed", () => {
    expect(memberPartOf(roomSpec, seatInfo(1, { member: 'B', partner: 0 }))).toEqual({ armId: 'peer', memberId: 'B' });
    expect(memberPartOf(roomSpec, seatInfo(1))).toBeNull();
    expect(memberPartOf(roomSpec, seatInfo(1, { member: 'Z', partner: 0 }))).toBeNull();
    const start = vi.fn(() => true);
    expect(startPairedSeat({ start }, roomSpec, seatInfo(3, { member: 'B', partner: 2 }))).toBe(true);
    expect(start).toHaveBeenCalledWith({ seed: 103, memberPart: { armId: 'peer', memberId: 'B' } });
  });

  it("train their member of their own pair's level (A is in every arm of the overlap preset)", () => {
    const overlap = getPreset('overlap')!.spec;
    expect(memberPartOf(overlap, seatInfo(2, { member: 'A', partner: 3, level: 'peer-T' }))).toEqual({ armId: 'peer-T', memberId: 'A' });
    expect(memberPartOf(overlap, seatInfo(3, { member: 'T', partner: 2, level: 'peer-T' }))).toEqual({ armId: 'peer-T', memberId: 'T' });
    // A member its level's arm does not have: none (not another arm's).
    expect(memberPartOf(overlap, seatInfo(3, { member: 'S', partner: 2, level: 'peer-T' }))).toBeNull();
    // A seat from a server older than levels: the first peer arm with its member, as then.
    expect(memberPartOf(overlap, seatInfo(0, { member: 'A', partner: 1 }))).toEqual({ armId: 'peer-S', memberId: 'A' });
  });

  it("relay: the worker's answers to the room, the partner's back as the reply", async () => {
    const { c, f } = seatedRoom();
    const lab = fakeLab();
    const waits: (PartnerWait | null)[] = [];
    const relay = relayExchanges(lab, c, { partner: () => ({ seat: 1, connected: true }), onWait: (w) => waits.push(w) });
    lab.ask({ runId: 7, step: 2, kind: 'train', answers: [['5', null]] });
    expect(f.last.of('exchange')).toEqual([{ t: 'exchange', step: 2, kind: 'train', answers: [['5', null]] }]);
    expect(lab.replies).toEqual([]);
    f.last.server({ t: 'exchange', step: 2, kind: 'train', answers: [['6', '6']] });
    await vi.advanceTimersByTimeAsync(0);
    expect(lab.replies).toEqual([{ runId: 7, step: 2, kind: 'train', answers: [['6', '6']] }]);
    // Answered at once: the page never said it waited.
    expect(waits.filter((w) => w !== null)).toEqual([]);
    relay.stop();
    expect(lab.handler).toBeNull();
  });

  it('says it waits for the partner after a few seconds, and that the partner left while their seat is away', async () => {
    const { c, f } = seatedRoom();
    const lab = fakeLab();
    let connected = true;
    let wait: PartnerWait | null = null;
    const relay = relayExchanges(lab, c, { partner: () => ({ seat: 1, connected }), onWait: (w) => (wait = w) });
    lab.ask({ runId: 1, step: 4, kind: 'eval', answers: [['1']] });
    await vi.advanceTimersByTimeAsync(PARTNER_WAIT_MS - 1);
    expect(wait).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(wait).toEqual({ partner: 1, left: false });
    connected = false;
    relay.partnerChanged();
    expect(wait).toEqual({ partner: 1, left: true });
    connected = true;
    f.last.server({ t: 'exchange', step: 4, kind: 'eval', answers: [['2']] });
    await vi.advanceTimersByTimeAsync(0);
    expect(wait).toBeNull();
    expect(lab.replies.map((r) => r.step)).toEqual([4]);
  });
});

describe('the odd student out of a paired room', () => {
  it('is told no partner has joined yet, not that a partner left', async () => {
    const { c } = seatedRoom();
    const lab = fakeLab();
    let wait: PartnerWait | null = null;
    relayExchanges(lab, c, { partner: () => ({ seat: null, connected: false }), onWait: (w) => (wait = w) });
    lab.ask({ runId: 1, step: 0, kind: 'eval', answers: [['1']] });
    await vi.advanceTimersByTimeAsync(PARTNER_WAIT_MS);
    expect(wait).toEqual({ partner: null, left: false });
  });
});
