/**
 * `npm run bench -- --no-node --no-browser --no-bundle --no-torch --class N`: the presenter's class
 * view with N seats at the room's byte budget (bench-class-events.ts), timed on the page's own code
 * run in Node (tsx): each event's frame parsed as the page's room client parses it
 * (parseServerMessage), merged into the class's records and folded into the class's results
 * (ClassRecords, src/app/room/classRecords.ts), as the page does at most once a second. Not in a
 * browser: no React, no charts, no drawing. Into bench/results/class-view.json and BENCHMARKS'
 * <!-- class-view --> section, made from it; docs/ROOM.md's sentence on the class view's cost too.
 *
 * The class arrives as a presenter who opens the room late meets it: every seat's base and steps
 * but its last two, then one results() (the first build); then each seat's next step alone, each
 * followed by a rebuild (one new event); then every seat's last step and one rebuild (a second in
 * which the whole class stepped); then every seat's done and one rebuild. For comparison, the
 * whole class replayed once (records, then seedResult: what every rebuild did before the class
 * view folded its events as they came).
 */
import { loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { FOLD_SLICE_MS } from '../../src/app/room/classFolds';
import { ClassRecords, type ClassRoom } from '../../src/app/room/classRecords';
import { seedResult } from '../../src/app/store/seedsSlice';
import { ROOM_LIMITS, parseServerMessage, type SeatEvent, type SeatInfo } from '../../src/room/protocol';
import { DEFAULT_LIMITS } from '../../server/limits';
import { classSpec, refusal, seatRun, stepsWithinBudget, storedBytes } from './bench-class-events';

export interface ClassViewTiming {
  seats: number;
  /** RL steps each seat stored, and the characters of one step event's JSON (the largest of the first seat's). */
  stepsPerSeat: number;
  stepChars: number;
  /** Bytes the room counted for the first seat, and its budget per seat (roomBytes / seats, at most seatBytes). */
  seatBytes: number;
  budgetPerSeat: number;
  /** Every event's frame parsed, all seats together (ms), and per event (median ms). */
  parseMs: number;
  parseMsPerEvent: number;
  /**
   * The first build over every seat's events but the last two steps and the done, in the page's
   * slices of FOLD_SLICE_MS: in all (ms), the events it folded, the slices and the longest (ms).
   */
  firstBuildMs: number;
  firstBuildFolded: number;
  slices: number;
  longestSliceMs: number;
  /** A rebuild after one new step of one seat: median and largest over the seats (ms), and the events each folded (the largest). */
  oneEventMs: { median: number; max: number };
  oneEventFolded: number;
  /** A rebuild after a step of every seat (ms). */
  classStepMs: number;
  /** A rebuild after every seat's done (made whole from the folded summary, ms). */
  doneMs: number;
  /** The whole class replayed once, as each rebuild did before (ms). */
  replayMs: number;
  /** JavaScript heap in use after a collection: before the class, with its events held (but the last two steps and the done), and with the whole class held and folded (MiB). */
  heapBeforeMiB: number;
  heapEventsMiB: number;
  heapMiB: number;
  node: string;
  load: number;
  date: string;
}

const MiB = 1024 * 1024;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function collector(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

export function runClassBench(seats: number, log: (line: string) => void): ClassViewTiming {
  if (seats < 1 || seats > ROOM_LIMITS.seats) throw new Error(`--class: 1 to ${ROOM_LIMITS.seats} seats`);
  const gc = collector();
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  // The size of a step decides how many fit: measured on a short run of the same experiment.
  const probe = seatRun(classSpec(3), 1);
  const stepChars = Math.max(...probe.filter((e) => e.type === 'step').map((e) => JSON.stringify(e).length));
  const otherChars = probe.filter((e) => e.type !== 'step').reduce((n, e) => n + JSON.stringify(e).length, 0);
  const steps = Math.min(stepsWithinBudget(seats, stepChars, otherChars), ROOM_LIMITS.eventsPerSeat - 2);
  if (steps < 3) throw new Error(`only ${steps} steps a seat fit the budget: the benchmark needs 3`);
  const spec = classSpec(steps);
  const seatInfos: SeatInfo[] = Array.from({ length: seats }, (_, index) => ({ index, seed: 1000 + index, member: null, partner: null, connected: true, events: steps + 2, lastStep: steps, done: true }));
  const room: ClassRoom = { spec, pairing: false, seats: seatInfos };
  log(`class view: ${seats} seats x ${steps} steps of ${(stepChars / 1024).toFixed(1)} KiB`);

  const records = new ClassRecords();
  const parseTimes: number[] = [];
  let seatBytes = 0;
  /** Each seat's events not yet arrived (from `at` on); made one seat at a time, so only the page's copy of the class is held. */
  const rest: { at: number; events: SeatEvent[] }[] = [];
  /** The seat's events at positions [from, to) arrive, each in its own frame (the presenter gets each as it is stored). */
  const arrive = (seat: number, from: number, to: number) => {
    const run = rest[seat] ?? { at: 0, events: seatRun(spec, seatInfos[seat].seed) };
    for (let seq = from; seq < to; seq++) {
      const event = run.events[seq - run.at];
      const frame = JSON.stringify({ t: 'events', seat, from: seq, events: [event] });
      if (seat === 0) {
        const refused = refusal(spec, seatInfos[0].seed, seq, event);
        if (refused) throw new Error(`the room would refuse seat 0's event ${seq}: ${refused}`);
        seatBytes += storedBytes(seat, seq, JSON.stringify(event));
      }
      const t0 = performance.now();
      const parsed = parseServerMessage(frame);
      parseTimes.push(performance.now() - t0);
      if (!parsed.ok || parsed.message.t !== 'events') throw new Error(`the page refused a frame: ${parsed.ok ? parsed.message.t : parsed.message}`);
      if (!records.merge(parsed.message.seat, parsed.message.from, parsed.message.events as SeatEvent[])) throw new Error('a gap');
    }
    rest[seat] = { at: to, events: run.events.slice(to - run.at) };
  };
  const timed = (what: () => unknown) => {
    const t0 = performance.now();
    what();
    return performance.now() - t0;
  };

  // Base and steps 1 .. steps - 2 of every seat, then the first build, in the page's slices.
  for (let seat = 0; seat < seats; seat++) arrive(seat, 0, steps - 1);
  gc();
  const heapEvents = process.memoryUsage().heapUsed;
  const slices: number[] = [];
  let firstBuildFolded = 0;
  do {
    const end = performance.now() + FOLD_SLICE_MS;
    slices.push(timed(() => records.results(room, () => performance.now() < end)));
    firstBuildFolded += records.lastFolded;
  } while (records.behind);
  const firstBuildMs = slices.reduce((a, b) => a + b, 0);
  log(`class view: first build ${firstBuildMs.toFixed(0)} ms (${firstBuildFolded} events) in ${slices.length} slices, the longest ${Math.max(...slices).toFixed(0)} ms`);
  // Step steps - 1 of each seat alone, each followed by a rebuild.
  const one: number[] = [];
  let oneEventFolded = 0;
  for (let seat = 0; seat < seats; seat++) {
    arrive(seat, steps - 1, steps);
    one.push(timed(() => records.results(room)));
    oneEventFolded = Math.max(oneEventFolded, records.lastFolded);
  }
  // The last step of every seat, one rebuild; then every done, one rebuild.
  for (let seat = 0; seat < seats; seat++) arrive(seat, steps, steps + 1);
  const classStepMs = timed(() => records.results(room));
  for (let seat = 0; seat < seats; seat++) arrive(seat, steps + 1, steps + 2);
  const doneMs = timed(() => records.results(room));
  if (records.results(room).filter((r) => r.finished).length !== seats || records.dropped.length > 0) throw new Error('the class did not finish whole');
  rest.length = 0;
  gc();
  const heap = process.memoryUsage().heapUsed;
  const replayMs = timed(() => records.records(room).map((r) => seedResult(r.record)));
  log(`class view: one event ${median(one).toFixed(1)} ms, a class step ${classStepMs.toFixed(0)} ms, dones ${doneMs.toFixed(0)} ms, replay ${replayMs.toFixed(0)} ms`);
  return {
    seats,
    stepsPerSeat: steps,
    stepChars,
    seatBytes,
    budgetPerSeat: Math.min(DEFAULT_LIMITS.seatBytes, Math.floor(DEFAULT_LIMITS.roomBytes / seats)),
    parseMs: Math.round(parseTimes.reduce((a, b) => a + b, 0)),
    parseMsPerEvent: round(median(parseTimes), 2),
    firstBuildMs: Math.round(firstBuildMs),
    firstBuildFolded,
    slices: slices.length,
    longestSliceMs: round(Math.max(...slices)),
    oneEventMs: { median: round(median(one), 2), max: round(Math.max(...one), 2) },
    oneEventFolded,
    classStepMs: round(classStepMs),
    doneMs: round(doneMs),
    replayMs: Math.round(replayMs),
    heapBeforeMiB: Math.round(heapBefore / MiB),
    heapEventsMiB: Math.round(heapEvents / MiB),
    heapMiB: Math.round(heap / MiB),
    node: process.version,
    load: round(loadavg()[0], 2),
    date: new Date().toISOString().slice(0, 10),
  };
}

/** BENCHMARKS' class-view section, one row per measured class size. */
export function classViewSection(runs: readonly ClassViewTiming[]): string {
  const dates = [...new Set(runs.map((r) => r.date))].sort().join(', ');
  const nodes = [...new Set(runs.map((r) => r.node))].join(', ');
  const lines = [
    `## The class view at the room's byte budget, ${dates}`,
    '',
    '`npm run bench -- --no-node --no-browser --no-bundle --no-torch --class 60`: the presenter\'s class view (`ClassRecords`, ' +
      '`src/app/room/classRecords.ts`) on the page\'s own code run in Node (tsx), not in a browser: no React, no charts. Every seat ' +
      "stores as many step events as the room's byte budget leaves it (`roomBytes` / seats, counted as the store counts them), each " +
      'as large as a room accepts (10 arms of 6 members, every metric and pair at full precision, held-out figures at every step); ' +
      "each event comes in its own frame, parsed by the page's parser. First build: every seat's events but its last two steps " +
      `(a presenter who opens the room late), folded as the page folds them, in slices of ${FOLD_SLICE_MS} ms with the page free between them. ` +
      "One new event: a seat's next step, then a rebuild (median and largest " +
      'over the seats). A class step: every seat one step, one rebuild (the page rebuilds at most once a second). Replay: the whole ' +
      'class replayed once, as every rebuild did before the class view folded its events as they came. Heap: the JavaScript heap ' +
      `in use after a collection, with the events held before the first build, and with the whole class held and folded. ${nodes}; load: the 1-minute load average at the end (2 cores).`,
    '',
    '| seats | steps a seat | step event (KiB) | stored a seat (MiB, of) | parse every frame (s) | parse one (ms) | first build (ms, events, slices, longest slice ms) | one new event (ms, median / largest) | events folded by it | a class step (ms) | every done (ms) | replay (ms) | heap: events held, and folded too (MiB) | load |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of runs) {
    lines.push(
      `| ${r.seats} | ${r.stepsPerSeat} | ${(r.stepChars / 1024).toFixed(1)} | ${(r.seatBytes / MiB).toFixed(2)} of ${(r.budgetPerSeat / MiB).toFixed(2)} | ${(r.parseMs / 1000).toFixed(1)} | ${r.parseMsPerEvent.toFixed(2)} | ` +
        `${r.firstBuildMs}, ${r.firstBuildFolded}, ${r.slices}, ${r.longestSliceMs.toFixed(0)} | ${r.oneEventMs.median.toFixed(2)} / ${r.oneEventMs.max.toFixed(2)} | ${r.oneEventFolded} | ${r.classStepMs.toFixed(1)} | ${r.doneMs.toFixed(1)} | ${r.replayMs} | ${r.heapEventsMiB}, ${r.heapMiB} | ${r.load} |`,
    );
  }
  lines.push('');
  return lines.join('\n');
}

/** docs/ROOM.md's sentence on the class view's cost, from the run of the most seats. */
export function classViewRoomLine(runs: readonly ClassViewTiming[]): string {
  const r = [...runs].sort((a, b) => b.seats - a.seats)[0];
  if (!r) return '';
  return (
    `With ${r.seats} seats at the room's byte budget (${r.stepsPerSeat} step events of ${(r.stepChars / 1024).toFixed(0)} KiB a seat), the page's own code ` +
    `(in Node, ${r.date}, load ${r.load}) parsed each event's frame in ${r.parseMsPerEvent.toFixed(2)} ms, folded the whole class once in ` +
    `${(r.firstBuildMs / 1000).toFixed(1)} s (in ${r.slices} slices of at most ${r.longestSliceMs.toFixed(0)} ms), a rebuild with one new event in ` +
    `${r.oneEventMs.median.toFixed(2)} ms (a step of every seat: ${r.classStepMs.toFixed(0)} ms; the whole class replayed, as each rebuild did before: ` +
    `${r.replayMs} ms) and held the class in ${r.heapMiB} MiB of heap (docs/BENCHMARKS.md, "The class view at the room's byte budget").`
  );
}
