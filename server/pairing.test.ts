// Paired rooms: seats 2k and 2k+1 train the two members of the spec's peer arm with one seed, and
// each step's answers go through the room to the partner, kept for the room's life so that a
// partner who (re)joins gets every one of them again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoom, joinRoom, presetSpec, shapedAnswers, startLocalServer, type LocalServer } from './load/harness';
import { RoomClient } from './load/roomClient';

let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ roomDebounceMs: 10 });
});
afterAll(() => local.dispose());

// Answers of the shape the partner's page reads (the server refuses any other).
const spec = presetSpec('quick');
const answers = (n: number, kind: 'train' | 'eval' = 'train') => shapedAnswers(spec, n, kind);

describe('paired rooms', () => {
  it('gives pairs one seed and the peer arm’s two members, and names partners', async () => {
    const { presenter, room } = await createRoom(local.url, { pairing: true, baseSeed: 10 });
    const seats = [];
    for (let i = 0; i < 5; i++) seats.push(await joinRoom(local.url, room));
    expect(seats.map((s) => [s.seat.seat.seed, s.seat.seat.member])).toEqual([
      [10, 'A'],
      [10, 'B'],
      [11, 'A'],
      [11, 'B'],
      [12, 'A'],
    ]);
    // A seat's partner is null until someone takes it.
    expect(seats.map((s) => s.seat.seat.partner)).toEqual([null, 0, null, 2, null]);
    const info = await presenter.waitFor('room', (m) => m.room.seats.length === 5);
    expect(info.room.seats.map((s) => s.partner)).toEqual([1, 0, 3, 2, null]);
    await Promise.all([presenter, ...seats.map((s) => s.client)].map((c) => c.close()));
  });

  it('relays answers to the partner only, and resends them all to a partner who rejoins', async () => {
    const { presenter, room } = await createRoom(local.url, { pairing: true });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    const c = await joinRoom(local.url, room);
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    const got = await b.client.waitFor('exchange');
    expect(got).toEqual({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    b.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(2) });
    expect((await a.client.waitFor('exchange')).answers).toEqual(answers(2));

    // B goes away; A goes on; B comes back (say from an earlier checkpoint) and gets all of A's.
    await b.client.close();
    a.client.send({ t: 'exchange', step: 2, kind: 'train', answers: answers(3) });
    a.client.send({ t: 'exchange', step: 3, kind: 'eval', answers: answers(4, 'eval') });
    a.client.send({ t: 'ping' });
    await a.client.waitFor('pong');
    const back = await joinRoom(local.url, room, { index: 1, token: b.seat.token });
    await back.client.waitFor('exchange', (m) => m.step === 3 && m.kind === 'eval');
    const resent = back.client.messages.filter((m) => m.t === 'exchange');
    expect(resent.map((m) => m.t === 'exchange' && [m.step, m.kind, m.answers])).toEqual([
      [1, 'train', answers(1)],
      [2, 'train', answers(3)],
      [3, 'eval', answers(4, 'eval')],
    ]);
    // After `seat`.
    expect(back.client.messages.findIndex((m) => m.t === 'seat')).toBeLessThan(back.client.messages.findIndex((m) => m.t === 'exchange'));
    // Seat 2 (another pair, partner not yet there) and the presenter got none of it.
    c.client.send({ t: 'ping' });
    await c.client.waitFor('pong');
    expect(c.client.messages.some((m) => m.t === 'exchange')).toBe(false);
    expect(presenter.messages.some((m) => m.t === 'exchange')).toBe(false);
    await Promise.all([presenter, a.client, back.client, c.client].map((x) => x.close()));
  });

  it("refuses answers the partner's page could not read (their shape, or a step without answers), and relays none of them", async () => {
    const { presenter, room } = await createRoom(local.url, { pairing: true });
    const a = await joinRoom(local.url, room);
    const b = await joinRoom(local.url, room);
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1).slice(1) });
    expect((await a.client.waitFor('error')).message).toMatch(/not stored: Training answers cover \d+ prompts; these cover/);
    a.client.send({ t: 'exchange', step: 1, kind: 'eval', answers: answers(1, 'eval') });
    expect((await a.client.waitFor('error', (m) => /Held-out answers come/.test(m.message))).code).toBe('not-allowed');
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    expect((await b.client.waitFor('exchange')).answers).toEqual(answers(1));
    expect(b.client.messages.filter((m) => m.t === 'exchange')).toHaveLength(1);
    await Promise.all([presenter, a.client, b.client].map((x) => x.close()));
  });

  it('refuses answers in an unpaired room and from anyone but a seat', async () => {
    const { presenter, room } = await createRoom(local.url);
    const a = await joinRoom(local.url, room);
    a.client.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    expect((await a.client.waitFor('error')).message).toMatch(/not paired/);
    presenter.send({ t: 'exchange', step: 1, kind: 'train', answers: answers(1) });
    expect((await presenter.waitFor('error')).code).toBe('not-allowed');
    const stranger = await RoomClient.connect(local.url);
    stranger.send({ t: 'exchange', step: 1, kind: 'eval', answers: [] });
    expect((await stranger.waitFor('error')).code).toBe('not-allowed');
    await Promise.all([presenter, a.client, stranger].map((x) => x.close()));
  });
});
