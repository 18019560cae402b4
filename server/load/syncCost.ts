/**
 * `npx tsx server/load/syncCost.ts [writers] [events]`: what flushing each acknowledged write to
 * the disk costs (the room's default; `--no-fsync` turns it off). The load check's pattern: 60
 * writers at once (default), each appending 122 events of 4,200 characters one after the other
 * (the next after the previous write's callback, as the server acknowledges), through the room's
 * own store (store.ts), once with sync writes and once without, on temporary directories.
 * Prints events a second and the p50/p95 of one write. docs/ROOM.md, "Persistence", has the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RoomStore, type SeatRecord } from '../store';

async function measure(fsync: boolean, writers: number, events: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'room-sync-'));
  const store = await RoomStore.open(dir, { fsync });
  const json = JSON.stringify({ pad: 'x'.repeat(4200 - 10) });
  const times: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      for (let seq = 0; seq < events; seq++) {
        const seat: SeatRecord = { index: w, tokenHash: 'h', seed: w, member: null, events: seq + 1, lastStep: seq, done: false, bytes: (seq + 1) * json.length };
        const t = performance.now();
        await store.appendEvent('room', seat, seq, json);
        times.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.floor(p * (times.length - 1))].toFixed(1);
  return `${fsync ? 'sync   ' : 'no sync'}: ${Math.round((writers * events) / seconds)} events/s, one write p50 ${q(0.5)} ms, p95 ${q(0.95)} ms`;
}

const writers = Number(process.argv[2] ?? 60);
const events = Number(process.argv[3] ?? 122);
console.log(`${writers} writers x ${events} events of 4,200 characters, ${tmpdir()}`);
for (const fsync of [true, false, true, false]) console.log(await measure(fsync, writers, events));
