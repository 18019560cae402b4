// Rooms of an experiment with several partner levels (the overlap preset): each pair trains its own
// level (src/room/levels.ts), a freed seat taken again keeps it, a seat's events are checked
// against its own level and member, and the odd student out trains both members alone; in an
// unpaired room each seat trains a level alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seatTrainSpec } from '../src/room/levels';
import { streamedEvent, type SeatEvent } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, shapedAnswers, startLocalServer, type Joined, type LocalServer } from './load/harness';
import { syntheticRun } from './load/syntheticRun';
import { Room } from './roomState';
import type { RoomRecord, SeatRecord } from './store';

let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ roomDebounceMs: 10, seatGraceMs: 60_000, partnerWaitMs: 400 });
});
afterAll(() => local.dispose());

const spec = { ...presetSpec('overlap'), steps: 2, evalEvery: 1 };
/** The seat's own run, as its page would stream it. */
const runOf = (j: Joined, over: Partial<{ level: string; member: string; alone: boolean }> = {}): SeatEvent[] =>
  syntheticRun(seatTrainSpec(spec, { ...j.seat.seat, ...over }), j.seat.seat.seed).map(streamedEvent);

/** Poll until `ok` (the store's own state: no message says it); fails after a minute, a bound that only stops a hung test. */
async function until(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; !(await ok()); i++) {
    if (i >= 3000) throw new Error('the store never reached the state waited for');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function send(j: Joined, events: SeatEvent[]): Promise<void> {
  for (let seq = 0; seq < events.length; seq++) {
    j.client.send({ t: 'event', seq, event: events[seq] });
    await j.client.waitFor('ack', (m) => m.seq === seq);
  }
}

describe('partner levels', () => {
  it('gives pair k level k mod L, the ends first, and a freed seat taken again keeps its level', async () => {
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true, baseSeed: 50 });
    const seats: Joined[] = [];
    for (let i = 0; i < 5; i++) seats.push(await joinRoom(local.url, room));
    expect(seats.map((s) => [s.seat.seat.seed, s.seat.seat.level, s.seat.seat.member])).toEqual([
      [50, 'peer-S', 'A'],
      [50, 'peer-S', 'S'],
      [51, 'peer-T', 'A'],
      [51, 'peer-T', 'T'],
      [52, 'peer-B50', 'A'],
    ]);
    const info = await presenter.waitFor('room', (m) => m.room.seats.length === 5);
    expect(info.room.seats.map((s) => s.level)).toEqual(['peer-S', 'peer-S', 'peer-T', 'peer-T', 'peer-B50']);
    // The room says how long a seat waits for a partner (this server's 400 ms: 1 s, rounded up), so the page can.
    expect(info.room.partnerWaitS).toBe(1);
    // Seat 3 removed: the next student takes index 3, with its seed, level and member.
    presenter.send({ t: 'remove-seat', seat: 3 });
    await presenter.waitFor('room', (m) => m.room.seats.length === 4);
    const again = await joinRoom(local.url, room);
    expect(again.seat.seat).toMatchObject({ index: 3, seed: 51, level: 'peer-T', member: 'T', partner: 2, alone: false });
    await Promise.all([presenter, again.client, ...seats.map((s) => s.client)].map((c) => c.close()));
  });

  it("refuses a seat's events that name another level's arm or the partner's member, naming the rule", async () => {
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true, baseSeed: 60 });
    const a = await joinRoom(local.url, room); // pair 0: peer-S, member A
    const s = await joinRoom(local.url, room); // pair 0: peer-S, member S
    presenter.send({ t: 'start' });
    await presenter.waitFor('room', (m) => m.room.status === 'running');
    const mine = runOf(a);
    await send(a, mine.slice(0, 1));
    // Step 1 as a seat of level peer-T would send it: the room's experiment has that arm, this seat's pair does not.
    const other = runOf(a, { level: 'peer-T' });
    a.client.send({ t: 'event', seq: 1, event: other[1] });
    const refused = await a.client.waitFor('error');
    expect(refused.code).toBe('not-allowed');
    expect(refused.message).toMatch(/partner level "peer-S" alone; this event names arm "peer-T"/);
    expect((await presenter.waitFor('error')).message).toMatch(/^Seat 0's event 1 was refused and not shown/);
    // Seat 1 trains S: a base naming A (its partner's member) is refused.
    s.client.send({ t: 'event', seq: 0, event: runOf(s, { member: 'A' })[0] });
    expect((await s.client.waitFor('error')).message).toMatch(/trains member "S" of arm "peer-S" alone; this event names member "A"/);
    // Its own run is stored, step and done included.
    await send(s, runOf(s));
    const done = await presenter.waitFor('room', (m) => m.room.seats[1]?.done === true);
    expect(done.room.seats[1].events).toBe(spec.steps + 2);
    await Promise.all([presenter, a.client, s.client].map((c) => c.close()));
  });

  it('has the odd student out train both members of its level alone, and a seat taken beside it too', async () => {
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true, baseSeed: 70 });
    const seats = [await joinRoom(local.url, room), await joinRoom(local.url, room), await joinRoom(local.url, room)];
    presenter.send({ t: 'start' });
    const running = await presenter.waitFor('room', (m) => m.room.status === 'running');
    // The room message that says it runs already says who trains alone.
    expect(running.room.seats.map((x) => [x.level, x.member, x.alone])).toEqual([
      ['peer-S', 'A', false],
      ['peer-S', 'S', false],
      ['peer-T', 'A', true],
    ]);
    const odd = seats[2];
    const oddInfo = running.room.seats[2];
    // A member part's base (A alone) is within its level; its run of both members is what it sends.
    await send(odd, syntheticRun(seatTrainSpec(spec, oddInfo), odd.seat.seat.seed).map(streamedEvent));
    await presenter.waitFor('room', (m) => m.room.seats[2]?.done === true);
    // Answers have no partner to go to.
    odd.client.send({ t: 'exchange', step: 1, kind: 'train', answers: [] });
    expect((await odd.client.waitFor('error')).message).toMatch(/trains both members of its pair itself/);
    // A student joining now takes seat 3 beside the odd one: it trains alone too (no one answers it).
    const late = await joinRoom(local.url, room);
    expect(late.seat.seat).toMatchObject({ index: 3, level: 'peer-T', member: 'T', partner: 2, alone: true });
    // A full pair does not: seat 0's events with both members are refused.
    seats[0].client.send({ t: 'event', seq: 0, event: runOf(seats[0], { alone: true })[0] });
    expect((await seats[0].client.waitFor('error')).message).toMatch(/trains member "A" of arm "peer-S" alone; this event names member "S"/);
    // A student joining a new pair's index in a running room waits for a partner (partnerWaitMs)...
    const fifth = await joinRoom(local.url, room);
    expect(fifth.seat.seat).toMatchObject({ index: 4, level: 'peer-B50', alone: false });
    const sixth = await joinRoom(local.url, room);
    expect(sixth.seat.seat).toMatchObject({ index: 5, level: 'peer-B50', partner: 4, alone: false });
    // ... and one who gets none trains alone once the wait is over: the class never waits for a partner who is not coming.
    const seventh = await joinRoom(local.url, room);
    expect(seventh.seat.seat).toMatchObject({ index: 6, level: 'peer-B0', alone: false });
    const later = await presenter.waitFor('room', (m) => m.room.seats.find((x) => x.index === 6)?.alone === true);
    expect(later.room.seats.map((x) => [x.index, x.alone])).toEqual([
      [0, false],
      [1, false],
      [2, true],
      [3, true],
      [4, false],
      [5, false],
      [6, true],
    ]);
    await Promise.all([presenter, late.client, fifth.client, sixth.client, seventh.client, ...seats.map((x) => x.client)].map((c) => c.close()));
  });

  it("switches a seat whose partner was removed after the start to train alone once the wait is over, its member part discarded", async () => {
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true, baseSeed: 90 });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    presenter.send({ t: 'start' });
    await presenter.waitFor('room', (m) => m.room.status === 'running');
    // Seat 0 streams its member part (base and step 1) and its answers, then its partner is removed.
    const part = runOf(a);
    await send(a, part.slice(0, 2));
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: shapedAnswers(spec, 1) });
    await until(async () => (await local.server.store.readExchanges(room, 0)).length === 1);
    presenter.send({ t: 'remove-seat', seat: 1 });
    await presenter.waitFor('room', (m) => m.room.seats.length === 1);
    // After partnerWaitMs with the seat beside it empty, it trains alone: told so, nothing of its member part kept.
    const told = await a.client.waitFor('alone', () => true);
    expect(told.seat).toMatchObject({ index: 0, alone: true, events: 0, lastStep: 0, done: false });
    const shown = await presenter.waitFor('room', (m) => m.room.seats[0]?.alone === true);
    expect(shown.room.seats[0]).toMatchObject({ events: 0, alone: true });
    expect(await local.server.store.countEvents(room, 0)).toBe(0);
    expect(await local.server.store.readExchanges(room, 0)).toEqual([]);
    // The store reads as sound: its tally counts the deleted events and answers out.
    expect((await local.server.store.scan()).problems).toEqual([]);
    // The old stream's next event is refused (the room holds none), and so is its base: it names one member.
    let after = a.client.messages.length;
    a.client.send({ t: 'event', seq: 2, event: part[2] });
    expect((await a.client.waitFor('error', () => true, { after })).code).toBe('out-of-order');
    after = a.client.messages.length;
    a.client.send({ t: 'event', seq: 0, event: part[0] });
    expect((await a.client.waitFor('error', () => true, { after })).message).toMatch(/^Event 0 was not stored: .*both members/);
    // Answers have no partner to go to.
    after = a.client.messages.length;
    a.client.send({ t: 'exchange', step: 2, kind: 'train', answers: shapedAnswers(spec, 2) });
    expect((await a.client.waitFor('error', () => true, { after })).message).toMatch(/trains both members of its pair itself/);
    // Its run of the pair, from the base on, is stored whole.
    await send(a, runOf(a, { alone: true }));
    const done = await presenter.waitFor('room', (m) => m.room.seats[0]?.done === true);
    expect(done.room.seats[0].events).toBe(spec.steps + 2);
    // A student who takes the freed seat now trains alone beside it (a late joiner beside a lone seat).
    const c = await joinRoom(local.url, room);
    expect(c.seat.seat).toMatchObject({ index: 1, member: 'S', partner: 0, alone: true });
    await Promise.all([presenter, a.client, b.client, c.client].map((x) => x.close()));
  });

  it('does not switch a seat whose freed partner seat is taken again within the wait: the newcomer takes the member', async () => {
    const { presenter, room } = await createRoom(local.url, { spec, pairing: true, baseSeed: 95 });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    presenter.send({ t: 'start' });
    await presenter.waitFor('room', (m) => m.room.status === 'running');
    await send(a, runOf(a).slice(0, 1));
    presenter.send({ t: 'remove-seat', seat: 1 });
    await presenter.waitFor('room', (m) => m.room.seats.length === 1);
    const c = await joinRoom(local.url, room);
    expect(c.seat.seat).toMatchObject({ index: 1, level: 'peer-S', member: 'S', partner: 0, alone: false });
    // Longer than the partner wait: the pair stays a pair, seat 0's base kept.
    await new Promise((r) => setTimeout(r, 800));
    presenter.send({ t: 'lock', locked: true });
    const info = await presenter.waitFor('room', (m) => m.room.locked, { after: presenter.messages.length });
    expect(info.room.seats.map((x) => [x.alone, x.events])).toEqual([
      [false, 1],
      [false, 0],
    ]);
    expect(a.client.messages.some((m) => m.t === 'alone')).toBe(false);
    expect(await local.server.store.countEvents(room, 0)).toBe(1);
    await Promise.all([presenter, a.client, b.client, c.client].map((x) => x.close()));
  });

  it('gives each seat of an unpaired overlap room a level in turn, trained alone, and refuses the whole experiment or another level', async () => {
    const { presenter, room } = await createRoom(local.url, { spec, baseSeed: 80 });
    const seats: Joined[] = [];
    for (let i = 0; i < 7; i++) seats.push(await joinRoom(local.url, room));
    // Seat k trains level k mod 6, the ends first, both members itself; no member part, no partner.
    expect(seats.map((j) => [j.seat.seat.seed, j.seat.seat.level, j.seat.seat.member, j.seat.seat.partner, j.seat.seat.alone])).toEqual([
      [80, 'peer-S', null, null, true],
      [81, 'peer-T', null, null, true],
      [82, 'peer-B50', null, null, true],
      [83, 'peer-B0', null, null, true],
      [84, 'peer-B80', null, null, true],
      [85, 'peer-X', null, null, true],
      [86, 'peer-S', null, null, true],
    ]);
    presenter.send({ t: 'start' });
    const running = await presenter.waitFor('room', (m) => m.room.status === 'running');
    // No seat waits for a partner here.
    expect(running.room.partnerWaitS).toBeUndefined();
    const [a, t] = seats;
    // The whole experiment's base (seven members) is not this seat's run.
    a.client.send({ t: 'event', seq: 0, event: syntheticRun(spec, a.seat.seat.seed).map(streamedEvent)[0] });
    expect((await a.client.waitFor('error')).message).toMatch(/names member "(B0|B50|B80|T|X)"/);
    // Seat 1's level is peer-T: a step of peer-S (seat 0's level) is refused, naming the rule.
    await send(t, runOf(t).slice(0, 1));
    t.client.send({ t: 'event', seq: 1, event: runOf(t, { level: 'peer-S' })[1] });
    expect((await t.client.waitFor('error')).message).toMatch(/partner level "peer-T" alone; this event names arm "peer-S"/);
    // Its own run of its level's pair is stored, to the end; answers have no partner to go to.
    await send(a, runOf(a));
    const done = await presenter.waitFor('room', (m) => m.room.seats[0]?.done === true);
    expect(done.room.seats[0].events).toBe(spec.steps + 2);
    const after = a.client.messages.length;
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: [] });
    expect((await a.client.waitFor('error', () => true, { after })).message).toMatch(/not paired/);
    // A freed seat taken again keeps its level and seed.
    presenter.send({ t: 'remove-seat', seat: 3 });
    await presenter.waitFor('room', (m) => m.room.seats.length === 6);
    const again = await joinRoom(local.url, room);
    expect(again.seat.seat).toMatchObject({ index: 3, seed: 83, level: 'peer-B0', member: null, alone: true });
    await Promise.all([presenter, again.client, ...seats.map((j) => j.client)].map((c) => c.close()));
  });

  it('keeps an unpaired room of one level whole (peers-learn): no level, every arm of the experiment', async () => {
    const learn = { ...presetSpec('peers-learn'), steps: 2, evalEvery: 1 };
    const { presenter, room } = await createRoom(local.url, { spec: learn, baseSeed: 90 });
    const a = await joinRoom(local.url, room);
    expect(a.seat.seat).toMatchObject({ level: null, member: null, alone: false });
    await send(a, syntheticRun(learn, a.seat.seat.seed).map(streamedEvent));
    await Promise.all([presenter, a.client].map((c) => c.close()));
  });
});

describe('rooms stored before levels', () => {
  it('read their pairs as training the first peer arm, as they did', () => {
    const record: RoomRecord = { id: 'x', keyHash: 'h', name: 'old', preset: 'overlap', spec, baseSeed: 1, pairing: true, status: 'running', createdAt: 0, expiresAt: 1 };
    const seat = (index: number, member: string): SeatRecord => ({ index, tokenHash: 't', seed: 1, member, events: 0, lastStep: 0, done: false });
    const room = new Room(record, [seat(0, 'A'), seat(1, 'S'), seat(2, 'A')]);
    expect(room.levels).toEqual(['peer-S']);
    expect(room.taken().map((s) => room.seatInfo(s).level)).toEqual(['peer-S', 'peer-S', 'peer-S']);
    // A new pair in the old room trains the same arm, with the member its index gives.
    expect([room.levelOf(3), room.memberOf(3), room.levelOf(5), room.memberOf(4)]).toEqual(['peer-S', 'S', 'peer-S', 'A']);
    expect(room.seatSpec(room.seats[0]!).arms.map((a) => a.id)).toEqual(['peer-S']);
    // Unpaired: the whole experiment, any member.
    const open = new Room({ ...record, pairing: false }, [{ ...seat(0, 'A'), member: null }]);
    expect([open.levels, open.levelOf(0), open.ownMembers(open.seats[0]!), open.seatSpec(open.seats[0]!)]).toEqual([[], null, null, spec]);
  });
});
