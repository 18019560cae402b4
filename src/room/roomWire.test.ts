/**
 * Class mode end to end in Node, against the real room server (on an ephemeral port, a temporary
 * data directory) with the page's own client (RoomConnection over the `ws` package's WebSocket)
 * and the page's own class records (ClassRecords), on runs the engine really trained (wasm):
 *
 *   - a class of three: the presenter creates and starts the room, the students stream their runs,
 *     one leaves and rejoins with its token (it sends on from the server's count), the server is
 *     restarted mid-stream (everyone reconnects by themselves), and at the end the presenter holds
 *     every seat's whole run, its 'done' restored, the room's run file opens as those runs, and a
 *     reloaded presenter page presents the room again (its link and the key it holds);
 *   - a pair: two member parts of a peer arm train in this process, exchanging answers through the
 *     room, and the presenter's pair is the one-process run of pairSpec bit for bit (the
 *     numbers equal a two-member peer arm trained in one browser with the same seeds).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { pairSpec } from '../core/experiment/memberParts';
import type { RunnerEvent } from '../core/experiment/events';
import { useBackend } from '../core/testing/fixed-policy';
import type { RoomConnection, RoomRole } from './client';
import { memoryStorage } from './fakeSocket.testkit';
import type { RoomInfo } from './protocol';
import { asStreamed, recordRun, tinyRoomSpec } from './realRun.testkit';
import type { RecordedEvent } from '../share/record';
import { parseBundle } from '../share/bundle';
import { ClassRecords } from '../app/room/classRecords';
import { roomRunFile } from '../app/room/roomExport';
import { linkRole } from '../app/room/roomLink';
import { realRoomServer, until } from './realServer.testkit';

const PAGE = { protocol: 'http:', host: '127.0.0.1:5173', hostname: '127.0.0.1', origin: 'http://127.0.0.1:5173', pathname: '/' };

const BASE_SEED = 100;
const server = realRoomServer();

/** The presenter's page as far as the class's runs go: the room it is shown and the seats' events. */
function presenterOf(url: string, role: RoomRole, storage = memoryStorage()) {
  const records = new ClassRecords();
  const view: { info: RoomInfo | null; room: string | null } = { info: null, room: 'room' in role ? role.room : null };
  const client = server.connect(url, role, storage);
  client.subscribe((ev) => {
    if (ev.type === 'created') view.room = ev.room;
    if (ev.type === 'room') view.info = ev.room;
    if (ev.type === 'events') records.merge(ev.seat, ev.from, ev.events);
  });
  return { client, records, view };
}

async function seated(c: RoomConnection): Promise<number> {
  await until('a seat', () => c.seat !== null && c.status === 'online');
  return c.seat!.index;
}

/** A run as the room's reader should see it: the runner's events, rollout samples aside. */
const noSamples = (events: readonly RecordedEvent[]) => events.map((e) => (e.type === 'step' ? { ...e, samples: [] } : e));
const timeless = (e: RunnerEvent) => (e.type === 'step' ? { ...e, stepMs: 0, samples: [] } : e.type === 'done' ? { ...e, summary: { ...e.summary, medianStepMs: 0 } } : e);

describe('class mode through the real room server', () => {
  beforeAll(() => useBackend('wasm'));

  it('three students, a rejoin and a server restart mid-stream: the presenter ends with every seat whole', async () => {
    const spec = tinyRoomSpec();
    const runs = await Promise.all([0, 1, 2].map((i) => recordRun({ ...spec, seed: BASE_SEED + i })));
    expect(runs.map((r) => r.map((e) => e.type))).toEqual([0, 1, 2].map(() => ['base', 'step', 'step', 'step', 'done']));

    const local = await server.start({ feedMs: 50 });
    const url = local.url;
    const presenterStorage = memoryStorage();
    const p = presenterOf(url, { kind: 'presenter', create: { name: 'Class', preset: null, spec, baseSeed: BASE_SEED, pairing: false } }, presenterStorage);
    await until('the room', () => p.view.room !== null && p.view.info !== null);
    const room = p.view.room!;

    const storages = [memoryStorage(), memoryStorage(), memoryStorage()];
    const students: RoomConnection[] = [];
    for (let i = 0; i < 3; i++) {
      students.push(server.connect(url, { kind: 'student', room }, storages[i]));
      expect(await seated(students[i])).toBe(i);
    }
    expect(students.map((s) => s.seat!.seed)).toEqual([BASE_SEED, BASE_SEED + 1, BASE_SEED + 2]);
    expect(p.client.start()).toBe(true);
    await until('the room running', () => p.view.info?.status === 'running' && students.every((s) => s.room?.status === 'running'));

    // The base and step 1 of every run.
    students.forEach((s, i) => s.pushEvents(0, runs[i].slice(0, 2)));
    await until('2 events acked each', () => students.every((s) => s.ackedEvents === 2));

    // Seat 1 leaves (a closed tab) and comes back with its token: it sends on from the room's count.
    students[1].close();
    const back = server.connect(url, { kind: 'student', room }, storages[1]);
    expect(await seated(back)).toBe(1);
    expect(back.ackedEvents).toBe(2);
    back.pushEvents(0, runs[1].slice(0, 3)); // the reloaded page's run so far: only step 2 is new
    students[1] = back;
    await until('seat 1 at 3', () => back.ackedEvents === 3);

    // The server goes down mid-stream; the runs go on and the pages reconnect by themselves.
    const wentOffline = new Set<number>();
    students.forEach((s, i) => s.subscribe((ev) => ev.type === 'status' && ev.status === 'offline' && wentOffline.add(i)));
    students[0].pushEvents(2, runs[0].slice(2, 4));
    await local.restart();
    students[2].pushEvents(2, runs[2].slice(2));
    students[0].pushEvents(4, runs[0].slice(4));
    back.pushEvents(3, runs[1].slice(3));
    await until('every run acked', () => students.every((s, i) => s.ackedEvents === runs[i].length));
    await until('the presenter back online', () => p.client.status === 'online');
    expect([...wentOffline].sort()).toEqual([0, 1, 2]);
    await until('the presenter holding every event', () => [0, 1, 2].every((i) => p.records.held(i) === runs[i].length));

    const info = p.view.info!;
    const held = p.records.records(info);
    expect(held.map((r) => [r.label, r.record.spec.seed])).toEqual([0, 1, 2].map((i) => [`seat ${i}`, BASE_SEED + i]));
    // Every seat's run as its runner made it: the done whole again (histories refolded).
    expect(held.map((r) => r.record.events)).toEqual(runs.map(noSamples));
    expect(held.map((r) => r.record.spec)).toEqual([0, 1, 2].map((i) => ({ ...spec, seed: BASE_SEED + i })));
    // What the wire carried had no histories in its done: the restore did the work.
    const wire = asStreamed(runs[0]);
    expect(p.records.held(0)).toBe(wire.length);

    const file = roomRunFile(info, held);
    if (!file.ok) throw new Error(file.problem);
    const parsed = parseBundle(file.text);
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.bundle.seeds!.map((r) => r.events)).toEqual(runs.map(noSamples));
    expect(parsed.bundle.seeds!.map((r) => r.spec.seed)).toEqual([BASE_SEED, BASE_SEED + 1, BASE_SEED + 2]);

    // The presenter reloads: the page's link (the room's) and the key this browser holds make it
    // the presenter again, and the room's whole history comes back.
    p.client.close();
    const link = linkRole(`?room=${room}&server=${encodeURIComponent(url)}`, PAGE, presenterStorage);
    if (link.kind !== 'join') throw new Error('the link is a room');
    expect(link.role).toEqual({ kind: 'presenter', room });
    const again = presenterOf(link.server, link.role, presenterStorage);
    await until('the reloaded presenter holding every event', () => again.view.info !== null && [0, 1, 2].every((i) => again.records.held(i) === runs[i].length));
    expect(again.records.records(again.view.info!).map((r) => r.record.events)).toEqual(runs.map(noSamples));
    // A student's browser with the same link joins as a student.
    expect(linkRole(`?room=${room}&server=${encodeURIComponent(url)}`, PAGE, storages[0])).toMatchObject({ role: { kind: 'student', room } });
  });

  it("a pair's two member parts exchange through the room, and the presenter's pair equals the one-process run of the pair", async () => {
    const spec = tinyRoomSpec();
    const local = await server.start({ feedMs: 50 });
    const url = local.url;
    const p = presenterOf(url, { kind: 'presenter', create: { name: 'Class', preset: null, spec, baseSeed: BASE_SEED, pairing: true } });
    await until('the room', () => p.view.room !== null);
    const room = p.view.room!;
    const a = server.connect(url, { kind: 'student', room });
    await seated(a);
    const b = server.connect(url, { kind: 'student', room });
    await seated(b);
    expect([a.seat, b.seat].map((s) => [s!.index, s!.seed, s!.member])).toEqual([
      [0, BASE_SEED, 'A'],
      [1, BASE_SEED, 'B'],
    ]);
    expect(p.client.start()).toBe(true);
    await until('the room running', () => p.view.info?.status === 'running');

    // Each seat trains its member; its events go to the room as they come (a page's SeatStream).
    const seatSpec = { ...spec, seed: BASE_SEED };
    const part = async (c: RoomConnection) => {
      const events: RecordedEvent[] = [];
      const exchange = (step: number, kind: 'train' | 'eval', answers: (string | null)[][]) => {
        c.sendExchange(step, kind, answers);
        return c.partnerAnswers(step, kind);
      };
      const run = await recordRun(seatSpec, { memberPart: { armId: 'peer', memberId: c.seat!.member!, exchange } });
      for (const e of run) {
        events.push(e);
        c.pushEvents(events.length - 1, [e]);
      }
      return events;
    };
    const [ea, eb] = await Promise.all([part(a), part(b)]);
    await until('the presenter holding both seats', () => p.records.held(0) === ea.length && p.records.held(1) === eb.length);

    const single = await recordRun(pairSpec(seatSpec, 'peer'));
    const [pair] = p.records.records(p.view.info!);
    expect([pair.label, pair.seats.map((s) => s.index), pair.problem]).toEqual(['pair 0', [0, 1], null]);
    expect(pair.record.spec).toEqual(pairSpec(seatSpec, 'peer'));
    expect(pair.record.events.map(timeless)).toEqual(single.map(timeless));
    const history = single.at(-1)!.type === 'done' ? (single.at(-1) as Extract<RunnerEvent, { type: 'done' }>).summary.arms[0] : null;
    expect([history?.members.map((m) => m.history.length), history?.pairs.length, history?.ensemble.length]).toEqual([[3, 3], 3, 2]);

    // Until both sides have a step, what exists is shown: seat 0 alone is the pair with one member.
    const early = new ClassRecords();
    early.merge(0, 0, ea.slice(0, 2));
    const [alone] = early.records(p.view.info!);
    expect(alone.label).toBe('pair 0');
    expect(alone.record.events.map((e) => e.type)).toEqual(['base', 'step']);
    const step1 = alone.record.events[1];
    expect(step1.type === 'step' && Object.keys(step1.arms[0].members)).toEqual(['A']);
  });
});
