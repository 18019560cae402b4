/**
 * `npm run room -- --load N [--pairs P]`: N headless students and a presenter against a room
 * server, each student from a loopback address of its own (the server's budgets are per address,
 * as for devices), streaming a run's worth of events of the default preset's shape
 * (syntheticRun.ts) at a step every --step-ms, as a page does: events sent as they come,
 * acknowledged by the room. With --pairs P, 2P of them sit in a paired room of their own and
 * exchange answers each step (each must get every one of its partner's). With no --url the server
 * is the real one (`cli/room/room.ts`) in a child process on a free port and a temporary data directory,
 * killed (SIGKILL) once mid-run and started again on the same port and directory: every client
 * reconnects on its own and goes on from what the room holds.
 *
 * Reports the latency from a student's send to the presenter's receipt and to the student's ack,
 * the traffic, the server process's memory and CPU (child process only), and whether anything was
 * lost: each presenter must have every event of every seat, in order and once, and at the end a
 * fresh presenter's view of each room (and, with the child, the store itself) must hold every
 * event, and every paired seat must have had all its partner's answers. Returns false if not.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { DEFAULT_PRESET } from '../../src/core/experiment/presets';
import { ROOM_LIMITS, ROOM_PROTOCOL_VERSION, streamedEvent, type SeatEvent, type ServerMessage } from '../../src/room/protocol';
import { seatTrainSpec } from '../../src/room/levels';
import { startTarget, type Target } from '../attack/target';
import { RoomStore } from '../store';
import { createRoom, presetSpec, shapedAnswers } from './harness';
import { RoomClient, deviceFor } from './roomClient';
import { syntheticRun } from './syntheticRun';

export interface LoadOptions {
  clients: number;
  stepMs: number;
  /** Of the students, how many pairs sit in a paired room of their own (exchanging answers each step). */
  pairs?: number;
  /** A server to load (null: the real server in a child process, killed and restarted once mid-run). */
  url: string | null;
  log: (line: string) => void;
}

/** One room of the check: its presenter's count of each seat's events. */
interface LoadRoom {
  id: string;
  key: string;
  paired: boolean;
  /** Its presenter is connected and has had the room. */
  live: boolean;
  students: Student[];
  received: number[];
}

interface Student {
  room: LoadRoom;
  /** Its device: a source address of its own. */
  from: string | undefined;
  index: number;
  token: string;
  run: SeatEvent[];
  /** Events its run has made so far (one every stepMs), the next to send, and how many are acknowledged. */
  produced: number;
  next: number;
  acked: number;
  /** When each event was made: latencies count from there (an event made while the room was down includes the wait). */
  sentAt: number[];
  /** Paired: the steps whose answers it has sent (all sent again on a rejoin), and the partner's steps it has had. */
  answersSent: number;
  partnerSteps: Set<number>;
  ws: WebSocket | null;
  timer: ReturnType<typeof setInterval> | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function quantiles(xs: number[]): string {
  if (xs.length === 0) return 'none';
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms`;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export async function loadCheck(o: LoadOptions): Promise<boolean> {
  const spec = presetSpec(DEFAULT_PRESET);
  const pairs = o.pairs ?? 0;
  let child: Target | null = null;
  let url = o.url;
  if (!url) {
    child = await startTarget();
    url = child.url;
  }
  const target = url;
  o.log(`load check: ${o.clients} students (${pairs} pairs in a paired room), each from its own address, preset ${DEFAULT_PRESET} (${spec.steps} steps, ${spec.arms.length} arms), a step every ${o.stepMs} ms, server ${child ? `cli/room/room.ts in a child process (pid ${child.pid}, ${child.dataDir})` : o.url}`);

  const problems: string[] = [];
  const latency: number[] = [];
  /** Latencies of events in flight during the restart (sent before it was over, received after it began). */
  const acrossRestart: number[] = [];
  let restartAt = Infinity;
  let restartDone = Infinity;
  const ackLatency: number[] = [];
  const ackAcrossRestart: number[] = [];
  let outFrames = 0;
  let outBytes = 0;
  let inFrames = 0;
  let inBytes = 0;
  let feedBytes = 0;
  let presenterFrames = 0;
  let presenterBytes = 0;

  const rooms: LoadRoom[] = [];
  const presenters: RoomClient[] = [];
  let ending = false;
  let presenterReconnects = 0;
  /** A presenter that lost its connection comes back and presents again, as the page does. */
  const presentAgain = async (room: LoadRoom): Promise<void> => {
    presenterReconnects++;
    for (;;) {
      await sleep(200);
      if (ending) return;
      try {
        const p = await RoomClient.connect(target, { keep: false });
        watch(room, p);
        p.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room: room.id, key: room.key });
        await p.waitFor('room', () => true, { timeoutMs: 30_000 });
        room.live = true;
        return;
      } catch {
        /* the server is not back yet */
      }
    }
  };
  const watch = (room: LoadRoom, c: RoomClient) => {
    presenters.push(c);
    void c.closed.then(() => {
      room.live = false;
      if (!ending) void presentAgain(room);
    });
    c.ws.on('message', (d: Buffer) => {
      presenterFrames++;
      presenterBytes += d.length;
    });
    c.on((m) => {
      if (m.t !== 'events') return;
      const have = room.received[m.seat] ?? 0;
      if (m.from > have) problems.push(`the presenter got seat ${m.seat}'s events from ${m.from} having ${have}`);
      const end = m.from + m.events.length;
      const now = performance.now();
      for (let seq = Math.max(have, m.from); seq < end; seq++) {
        const sent = room.students[m.seat]?.sentAt[seq];
        if (sent !== undefined) (now > restartAt && sent < restartDone ? acrossRestart : latency).push(now - sent);
      }
      room.received[m.seat] = Math.max(have, end);
    });
  };
  // A room holds at most ROOM_LIMITS.seats: the unpaired students are spread over as many rooms as
  // they need (each with its presenter), the pairs have a room of their own (the last).
  const unpairedRooms = Math.max(1, Math.ceil((o.clients - 2 * pairs) / ROOM_LIMITS.seats));
  for (const paired of [...Array<boolean>(unpairedRooms).fill(false), ...(pairs > 0 ? [true] : [])]) {
    const { presenter, room, key } = await createRoom(target, { spec, pairing: paired, name: `load check, ${o.clients} students${paired ? ', paired' : ''}`, keep: false });
    const r: LoadRoom = { id: room, key, paired, live: true, students: [], received: [] };
    rooms.push(r);
    watch(r, presenter);
  }

  /** Send what the student's run has made and the room does not have yet (paired: each step's answers first). */
  const flush = (me: Student) => {
    const ws = me.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    const send = (m: unknown) => {
      const text = JSON.stringify(m);
      ws.send(text);
      inFrames++;
      inBytes += text.length;
    };
    while (me.next < me.produced) {
      const e = me.run[me.next];
      if (me.room.paired && e.type === 'step' && e.step > me.answersSent) {
        // Answers of the shape the partner's page reads (the server refuses any other), marked by seat and step.
        send({ t: 'exchange', step: e.step, kind: 'train', answers: shapedAnswers(spec, me.index * 10_000 + e.step) });
        me.answersSent = e.step;
      }
      send({ t: 'event', seq: me.next, event: e });
      me.next++;
    }
  };

  // Students: join, then stream at the pace; on a lost connection, rejoin and go on from `stored`.
  const connectStudent = async (room: LoadRoom, prior: Student | null): Promise<Student> => {
    const from = prior ? prior.from : deviceFor(target);
    for (;;) {
      try {
        const ws = new WebSocket(target, { perMessageDeflate: false, localAddress: from });
        await new Promise<void>((done, fail) => {
          ws.once('open', done);
          ws.once('error', fail);
        });
        ws.on('error', () => {});
        let s: Student | null = prior;
        const seat = await new Promise<Extract<ServerMessage, { t: 'seat' }>>((done, fail) => {
          ws.on('message', (data) => {
            const text = data.toString();
            outFrames++;
            outBytes += text.length;
            // The class's batched feed is only counted here: parsing it is the page's cost, not the server's.
            if (text.startsWith('{"t":"events"')) return void (feedBytes += text.length);
            const m = JSON.parse(text) as ServerMessage;
            if (m.t === 'seat') done(m);
            else if (m.t === 'ack' && s) {
              const sent = s.sentAt[m.seq];
              const now = performance.now();
              if (sent !== undefined && m.seq >= s.acked) (now > restartAt && sent < restartDone ? ackAcrossRestart : ackLatency).push(now - sent);
              s.acked = Math.max(s.acked, m.seq + 1);
            } else if (m.t === 'exchange' && s) s.partnerSteps.add(m.step);
            else if (m.t === 'error' && m.code !== 'out-of-order') {
              // out-of-order: events sent into a connection that was closing; resent after the rejoin.
              problems.push(`seat ${s?.index ?? '?'}: ${m.code}: ${m.message}`);
              fail(new Error(m.message));
            }
          });
          ws.once('close', () => fail(new Error('closed')));
          ws.send(JSON.stringify({ t: 'join', v: ROOM_PROTOCOL_VERSION, room: room.id, seat: prior ? { index: prior.index, token: prior.token } : null }));
        });
        s ??= { room, from, index: seat.seat.index, token: seat.token, run: syntheticRun(seatTrainSpec(spec, seat.seat), seat.seat.seed).map(streamedEvent), produced: 0, next: 0, acked: 0, sentAt: [], answersSent: 0, partnerSteps: new Set(), ws: null, timer: null };
        const me = s;
        me.ws = ws;
        me.next = seat.stored;
        me.acked = Math.max(me.acked, seat.stored);
        // A page sends a step's answers again after a rejoin (the room keeps the first).
        me.answersSent = 0;
        // The run goes on whether or not the room is reachable: a step every stepMs, like a page's
        // training; what it made while the connection was down goes at once when it is back.
        me.timer ??= setInterval(() => {
          if (me.produced < me.run.length) me.sentAt[me.produced++] = performance.now();
          flush(me);
        }, o.stepMs);
        flush(me);
        ws.once('close', () => {
          me.ws = null;
          if (me.acked < me.run.length) void sleep(100 + Math.random() * 400).then(() => connectStudent(room, me));
        });
        return me;
      } catch {
        await sleep(100 + Math.random() * 400);
      }
    }
  };

  // The clock, the CPU count and the peak memory start with the class arriving.
  const t0 = performance.now();
  const cpu0 = child ? cpuSeconds(child.pid) : NaN;
  /** CPU seconds of the process now running when the count began (its successor's count from its start). */
  let cpuBase = cpu0;
  child?.resetPeak();
  // Join in order, a little apart (a class arriving), so seat i is room.students[i]; the pairs first.
  const all: Student[] = [];
  for (let i = 0; i < o.clients; i++) {
    const room = i < 2 * pairs ? rooms[unpairedRooms] : rooms[(i - 2 * pairs) % unpairedRooms];
    const s = await connectStudent(room, null);
    room.students[s.index] = s;
    all.push(s);
    await sleep(5);
  }
  for (const p of presenters) p.send({ t: 'start' });
  const joined = (performance.now() - t0) / 1000;
  const total = all.reduce((n, s) => n + s.run.length, 0);
  const done = () => all.every((s) => s.acked >= s.run.length) && rooms.every((r) => r.students.every((s, i) => (r.received[i] ?? 0) >= s.run.length));

  let restarted = false;
  /** What the killed server printed. */
  let serverLog = '';
  let cpu = 0;
  let peakRss = 0;
  const deadline = t0 + (spec.steps + 2) * o.stepMs * 3 + 120_000;
  while (!done() && performance.now() < deadline) {
    await sleep(100);
    if (child && !restarted && all[0].acked >= all[0].run.length / 2) {
      restarted = true;
      restartAt = performance.now();
      o.log('killing the server (SIGKILL) mid-run and starting it again on the same port and data directory');
      cpu += cpuSeconds(child.pid) - cpuBase;
      cpuBase = 0;
      peakRss = child.peakRss();
      serverLog += child.output();
      await child.kill();
      child = await startTarget({ dataDir: child.dataDir, port: child.port });
      // The presenters come back with their keys, the students by themselves.
      while (!rooms.every((r) => r.live)) await sleep(20);
      restartDone = performance.now();
      o.log(`the server was back and the presenters in their rooms ${(restartDone - restartAt).toFixed(0)} ms after the kill`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  ending = true;
  if (child) {
    cpu += cpuSeconds(child.pid) - cpuBase;
    peakRss = Math.max(peakRss, child.peakRss());
  }
  for (const s of all) {
    if (s.timer) clearInterval(s.timer);
    s.acked = s.run.length; // no reconnect after this
    s.ws?.close();
  }

  // A fresh presenter's view of each room: it must hold every event of every seat.
  let lostRoom = 0;
  for (const r of rooms) {
    const check = await RoomClient.connect(target, { check: false, keep: false });
    const held: number[] = [];
    check.on((m) => {
      if (m.t === 'events' && m.from === (held[m.seat] ?? 0)) held[m.seat] = (held[m.seat] ?? 0) + m.events.length;
    });
    check.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room: r.id, key: r.key });
    await check.waitAny(() => r.students.every((s, i) => (held[i] ?? 0) >= s.run.length), { timeoutMs: 60_000 }).catch(() => undefined);
    lostRoom += r.students.reduce((n, s, i) => n + Math.max(0, s.run.length - (held[i] ?? 0)), 0);
    await check.close();
  }
  await Promise.all(presenters.map((p) => p.close()));
  let lostStore: number | null = null;
  const log = serverLog + (child?.output() ?? '');
  if (child) {
    const dataDir = child.dataDir;
    await child.kill();
    const store = await RoomStore.open(dataDir);
    lostStore = 0;
    for (const r of rooms) for (const s of r.students) lostStore += Math.max(0, s.run.length - (await store.countEvents(r.id, s.index)));
    await store.close();
    await child.stop();
  }
  const lostPresenter = rooms.reduce((n, r) => n + r.students.reduce((m, s, i) => m + Math.max(0, s.run.length - (r.received[i] ?? 0)), 0), 0);
  const pairedSeats = rooms.find((r) => r.paired)?.students ?? [];
  const lostAnswers = pairedSeats.reduce((n, s) => n + Math.max(0, spec.steps - s.partnerSteps.size), 0);
  const rows: [string, string][] = [
    ['students', `${o.clients} from ${o.clients} addresses (a step every ${o.stepMs} ms) in ${rooms.length} rooms: ${rooms.map((r) => `${r.students.length}${r.paired ? ' paired' : ''}`).join(', ')}`],
    ['events', `${total} (${all[0].run.length} per seat: base, ${spec.steps} steps, done), ${mb(inBytes)} sent by the students`],
    ['run time', `${seconds.toFixed(1)} s from the first join (all joined after ${joined.toFixed(1)} s; each run streams from its join)${restarted ? ', the server killed and restarted once mid-run' : ''}`],
    ['send -> presenter', `${quantiles(latency)}${restarted ? `; ${acrossRestart.length} events in flight during the restart: ${quantiles(acrossRestart)}` : ''}`],
    ['send -> ack', `${quantiles(ackLatency)}${restarted ? `; ${ackAcrossRestart.length} in flight during the restart: ${quantiles(ackAcrossRestart)}` : ''}`],
    ['messages in', `${(inFrames / seconds).toFixed(0)}/s (${mb(inBytes / seconds)}/s)`],
    ['messages out', `${(outFrames / seconds).toFixed(0)}/s to the students (${mb(outBytes / seconds)}/s, of which the class feed ${mb(feedBytes / seconds)}/s); ${(presenterFrames / seconds).toFixed(0)}/s to the presenters (${mb(presenterBytes / seconds)}/s)`],
    ['server RSS', Number.isNaN(cpu0) ? 'not known (--url)' : `peak ${mb(peakRss)} (the server process alone)`],
    ['server CPU', Number.isNaN(cpu0) ? 'not known (--url)' : `${cpu.toFixed(1)} s over ${seconds.toFixed(1)} s (${((100 * cpu) / seconds).toFixed(0)}% of one core)`],
    ['presenters', `${presenterReconnects} reconnects (the kill: one a room)`],
    ['server log', child ? `${(log.match(/^(dropped|refused|rate-limited) /gm) ?? []).length} connections dropped, refused or rate-limited` : 'not known (--url)'],
    ['lost: presenter', `${lostPresenter} of ${total}`],
    ['lost: room at the end', `${lostRoom} of ${total} (a fresh presenter's view)`],
    ['lost: store', lostStore === null ? 'not known (--url)' : `${lostStore} of ${total} (events in the data directory)`],
  ];
  if (pairs) rows.push(['lost: answers', `${lostAnswers} of ${pairedSeats.length * spec.steps} (each paired seat must have had its partner's every step)`]);
  for (const [k, v] of rows) o.log(`${k.padEnd(24)} ${v}`);
  for (const p of problems.slice(0, 10)) o.log(`problem: ${p}`);
  const ok = lostPresenter === 0 && lostRoom === 0 && (lostStore ?? 0) === 0 && lostAnswers === 0 && problems.length === 0;
  o.log(ok ? 'nothing lost' : 'LOST EVENTS or errors: see above');
  return ok;
}
