/**
 * npx tsx cli/bench/class-view-replay.ts FRAMES.json
 *
 * The presenter's page, fed what a presenter's connection received: FRAMES.json holds the frames
 * as they came (`{ at, text }`, at in ms), as the red team's `presenter-flood` row records them
 * (server/attack/attacks.ts). Each frame is parsed by the page's parser; the `room` frames give the
 * class (its experiment and seats), the `events` frames are merged into the class's records
 * (ClassRecords, src/app/room/classRecords.ts), and once per second of arrival the class view is
 * rebuilt as the page rebuilds it: in slices of FOLD_SLICE_MS until it has caught up. Prints one
 * line of JSON: the events merged, the events folded (each once: equal counts), the rebuilds, the
 * longest slice (ms), the runs dropped and the frames the page refused. Node, not a browser: the
 * page's own class-view code, no React and no charts.
 */
import { readFileSync } from 'node:fs';
import { FOLD_SLICE_MS } from '../../src/app/room/classFolds';
import { ClassRecords, type ClassRoom } from '../../src/app/room/classRecords';
import { parseServerMessage, type SeatEvent } from '../../src/room/protocol';
import { runMain, UsageError } from '../common/args';

export interface ReplayReport {
  events: number;
  folded: number;
  rebuilds: number;
  longestSliceMs: number;
  dropped: number;
  refused: number;
}

export function replayClassView(frames: readonly { at: number; text: string }[]): ReplayReport {
  const records = new ClassRecords();
  let room: ClassRoom | null = null;
  const report: ReplayReport = { events: 0, folded: 0, rebuilds: 0, longestSliceMs: 0, dropped: 0, refused: 0 };
  const rebuild = () => {
    if (!room) return;
    report.rebuilds++;
    do {
      const end = performance.now() + FOLD_SLICE_MS;
      const t0 = performance.now();
      records.results(room, () => performance.now() < end);
      report.longestSliceMs = Math.max(report.longestSliceMs, performance.now() - t0);
      report.folded += records.lastFolded;
    } while (records.behind);
    report.dropped = records.dropped.length;
  };
  let second = frames.length ? frames[0].at : 0;
  for (const frame of frames) {
    if (frame.at - second >= 1000) {
      rebuild();
      second = frame.at;
    }
    const parsed = parseServerMessage(frame.text);
    if (!parsed.ok) {
      report.refused++;
      continue;
    }
    const m = parsed.message;
    if (m.t === 'room') room = m.room;
    else if (m.t === 'events' && records.merge(m.seat, m.from, m.events as SeatEvent[])) report.events += m.events.length;
  }
  rebuild();
  return { ...report, longestSliceMs: Math.round(report.longestSliceMs) };
}

if (process.argv[1]?.endsWith('class-view-replay.ts')) {
  runMain(async () => {
    const file = process.argv[2];
    if (!file) throw new UsageError('usage: npx tsx cli/bench/class-view-replay.ts FRAMES.json');
    console.log(JSON.stringify(replayClassView(JSON.parse(readFileSync(file, 'utf8')) as { at: number; text: string }[])));
  }, 'room');
}
