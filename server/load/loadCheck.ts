/**
 * `npm run room -- --load N`: N headless students and a presenter against a room server, each
 * student streaming a run's worth of events of the default preset's shape (syntheticRun.ts) at a
 * step every --step-ms, as a page does: events sent as they come, acknowledged by the room. With
 * no --url the server runs in this process on a free port and a temporary data directory, and is
 * restarted once mid-run (closed and opened again on the same directory): every client reconnects
 * on its own and goes on from what the room holds.
 *
 * Reports the latency from a student's send to the presenter's receipt and to the student's ack,
 * the traffic, the process's memory before and after, and whether anything was lost: the presenter
 * must have every event of every seat, in order and once, and at the end a fresh presenter's view
 * of the room (and, in process, the store itself) must hold every event. Returns false if not.
 */
import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import { DEFAULT_PRESET } from '../../src/core/experiment/presets';
import { ROOM_PROTOCOL_VERSION, streamedEvent, type SeatEvent, type ServerMessage } from '../../src/room/protocol';
import { createRoom, presetSpec, startLocalServer, type LocalServer } from './harness';
import { RoomClient, deviceFor } from './roomClient';
import { syntheticRun } from './syntheticRun';

export interface LoadOptions {
  clients: number;
  stepMs: number;
  /** Of the students, how many pairs are in a paired room of their own (exchanging answers each step). */
  pairs?: number;
  /** A server to load (null: one in this process, restarted once mid-run). */
  url: string | null;
  log: (line: string) => void;
}

interface Student {
  /** Its device: a source address of its own (the server's budgets are per address). */
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

export async function loadCheck(o: LoadOptions): Promise<boolean> {
  const spec = presetSpec(DEFAULT_PRESET);
  const memBefore = process.memoryUsage();
  let local: LocalServer | null = null;
  let url = o.url;
  if (!url) {
    local = await startLocalServer({ log: () => {} });
    url = local.url;
  }
  const target = url;
  o.log(`load check: ${o.clients} students, preset ${DEFAULT_PRESET} (${spec.steps} steps, ${spec.arms.length} arms), a step every ${o.stepMs} ms, server ${o.url ?? `in this process (${local!.dataDir})`}`);

  // The presenter: counts each seat's events in order.
  const { presenter, room, key } = await createRoom(target, { spec, name: `load check, ${o.clients} students`, keep: false });
  const received: number[] = Array(o.clients).fill(0);
  const problems: string[] = [];
  const latency: number[] = [];
  /** Latencies of events in flight during the restart (sent before it was over, received after it began). */
  const acrossRestart: number[] = [];
  let restartAt = Infinity;
  let restartDone = Infinity;
  const ackLatency: number[] = [];
  const students: Student[] = [];
  let outFrames = 0;
  let outBytes = 0;
  let inFrames = 0;
  let inBytes = 0;
  let feedBytes = 0;
  const onPresenterEvents = (m: ServerMessage) => {
    if (m.t !== 'events') return;
    const have = received[m.seat];
    if (m.from > have) problems.push(`the presenter got seat ${m.seat}'s events from ${m.from} having ${have}`);
    const end = m.from + m.events.length;
    const now = performance.now();
    for (let seq = Math.max(have, m.from); seq < end; seq++) {
      const sent = students[m.seat]?.sentAt[seq];
      if (sent !== undefined) (now > restartAt && sent < restartDone ? acrossRestart : latency).push(now - sent);
    }
    received[m.seat] = Math.max(have, end);
  };
  let presenterFrames = 0;
  let presenterBytes = 0;
  const countPresenter = (c: RoomClient) =>
    c.ws.on('message', (d: Buffer) => {
      presenterFrames++;
      presenterBytes += d.length;
    });
  let presenterNow = presenter;
  presenterNow.on(onPresenterEvents);
  countPresenter(presenter);

  /** Send what the student's run has made and the room does not have yet. */
  const flush = (me: Student) => {
    const ws = me.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    while (me.next < me.produced) {
      const text = JSON.stringify({ t: 'event', seq: me.next, event: me.run[me.next] });
      ws.send(text);
      inFrames++;
      inBytes += text.length;
      me.next++;
    }
  };

  // Students: join, then stream at the pace; on a lost connection, rejoin and go on from `stored`.
  const connectStudent = async (prior: Student | null): Promise<Student> => {
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
              if (sent !== undefined && m.seq >= s.acked) ackLatency.push(performance.now() - sent);
              s.acked = Math.max(s.acked, m.seq + 1);
            } else if (m.t === 'error' && m.code !== 'out-of-order') {
              // out-of-order: events sent into a connection that was closing; resent after the rejoin.
              problems.push(`seat ${s?.index ?? '?'}: ${m.code}: ${m.message}`);
              fail(new Error(m.message));
            }
          });
          ws.once('close', () => fail(new Error('closed')));
          ws.send(JSON.stringify({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat: prior ? { index: prior.index, token: prior.token } : null }));
        });
        s ??= { from, index: seat.seat.index, token: seat.token, run: syntheticRun(spec, seat.seat.seed).map(streamedEvent), produced: 0, next: 0, acked: 0, sentAt: [], ws: null, timer: null };
        const me = s;
        me.ws = ws;
        me.next = seat.stored;
        me.acked = Math.max(me.acked, seat.stored);
        // The run goes on whether or not the room is reachable: a step every stepMs, like a page's
        // training; what it made while the connection was down goes at once when it is back.
        me.timer ??= setInterval(() => {
          if (me.produced < me.run.length) me.sentAt[me.produced++] = performance.now();
          flush(me);
        }, o.stepMs);
        flush(me);
        ws.once('close', () => {
          me.ws = null;
          if (me.acked < me.run.length) void sleep(100).then(() => connectStudent(me));
        });
        return me;
      } catch {
        await sleep(100);
      }
    }
  };

  // Join in order, a little apart (a class arriving), so seat i is students[i].
  for (let i = 0; i < o.clients; i++) {
    students.push(await connectStudent(null));
    await sleep(5);
  }
  presenter.send({ t: 'start' });
  const t0 = performance.now();
  const total = students.reduce((n, s) => n + s.run.length, 0);
  const done = () => students.every((s) => s.acked >= s.run.length) && received.every((n, i) => n >= students[i].run.length);

  let restarted = false;
  const deadline = t0 + (spec.steps + 2) * o.stepMs * 3 + 60_000;
  while (!done() && performance.now() < deadline) {
    await sleep(100);
    if (local && !restarted && students[0].acked >= students[0].run.length / 2) {
      restarted = true;
      restartAt = performance.now();
      o.log('restarting the server mid-run (closed and opened again on the same data directory)');
      await local.restart();
      // The presenter comes back with its key; the students reconnect by themselves.
      presenterNow = await RoomClient.connect(target, { keep: false });
      presenterNow.on(onPresenterEvents);
      countPresenter(presenterNow);
      presenterNow.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
      await presenterNow.waitFor('room');
      restartDone = performance.now();
      o.log(`the server was back and the presenter in the room ${(restartDone - restartAt).toFixed(0)} ms after the restart began`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  for (const s of students) {
    if (s.timer) clearInterval(s.timer);
    s.acked = s.run.length; // no reconnect after this
    s.ws?.close();
  }

  // A fresh presenter's view: the room must hold every event of every seat.
  const check = await RoomClient.connect(target, { check: false, keep: false });
  const held: number[] = Array(o.clients).fill(0);
  check.on((m) => {
    if (m.t === 'events' && m.from === held[m.seat]) held[m.seat] += m.events.length;
  });
  check.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
  await check.waitAny(() => held.every((n, i) => n >= students[i].run.length), { timeoutMs: 30_000 }).catch(() => undefined);
  // waitAny resolves on a message; the counts are updated by the listener registered first.
  const stored = local ? await Promise.all(students.map((s) => local!.server.store.countEvents(room, s.index))) : null;
  const memAfter = process.memoryUsage();
  const rss = local ? `${mb(memBefore.rss)} before, ${mb(memAfter.rss)} after (this process: the server and the ${o.clients + 1} clients)` : 'not known (the server is elsewhere: --url)';
  const heap = local ? `${mb(memBefore.heapUsed)} before, ${mb(memAfter.heapUsed)} after (same process)` : 'not known (--url)';

  const lostPresenter = students.reduce((n, s, i) => n + Math.max(0, s.run.length - received[i]), 0);
  const lostRoom = students.reduce((n, s, i) => n + Math.max(0, s.run.length - held[i]), 0);
  const lostStore = stored ? students.reduce((n, s, i) => n + Math.max(0, s.run.length - stored[i]), 0) : null;
  const rows: [string, string][] = [
    ['students', `${o.clients} (a step every ${o.stepMs} ms)`],
    ['events', `${total} (${students[0].run.length} per seat: base, ${spec.steps} steps, done), ${mb(inBytes)} sent by the students`],
    ['run time', `${seconds.toFixed(1)} s${restarted ? ', one server restart mid-run' : ''}`],
    ['send -> presenter', `${quantiles(latency)}${restarted ? `; ${acrossRestart.length} events in flight during the restart: ${quantiles(acrossRestart)}` : ''}`],
    ['send -> ack', quantiles(ackLatency)],
    ['messages in', `${(inFrames / seconds).toFixed(0)}/s (${mb(inBytes / seconds)}/s)`],
    ['messages out', `${(outFrames / seconds).toFixed(0)}/s to the students (${mb(outBytes / seconds)}/s, of which the class feed ${mb(feedBytes / seconds)}/s); ${(presenterFrames / seconds).toFixed(0)}/s to the presenter (${mb(presenterBytes / seconds)}/s)`],
    ['server RSS', rss],
    ['server heap', heap],
    ['lost: presenter', `${lostPresenter} of ${total}`],
    ['lost: room at the end', `${lostRoom} of ${total} (a fresh presenter's view)`],
    ['lost: store', lostStore === null ? 'not known (--url)' : `${lostStore} of ${total} (events in the data directory)`],
  ];
  for (const [k, v] of rows) o.log(`${k.padEnd(24)} ${v}`);
  for (const p of problems.slice(0, 10)) o.log(`problem: ${p}`);

  await Promise.all([presenter.close(), presenterNow.close(), check.close()]);
  await local?.dispose();
  const ok = lostPresenter === 0 && lostRoom === 0 && (lostStore ?? 0) === 0 && problems.length === 0;
  o.log(ok ? 'nothing lost' : 'LOST EVENTS or errors: see above');
  return ok;
}
