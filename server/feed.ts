/**
 * The students' view of the class: once a second (the hub's timer), each student connection is
 * sent, for every other seat, events stored since its last batch, as `events` frames (contiguous
 * per seat, split at the frame limit).
 *
 * Every student seeing every classmate's events is quadratic in bytes whatever the batching: 60
 * students streaming peers-learn at a step every 150 ms send about 1.6 MiB/s, and forwarding all
 * of it to each of them measured 97 MiB/s (docs/ROOM.md, "The class feed"), more than a class's
 * Wi-Fi carries. So each student's feed has a byte budget (`feedBytesPerSecond`, default 128 KiB/s,
 * a bucket that saves up two seconds): the server's output is at most students x budget, linear
 * in the class. Within a batch the budget is shared evenly among the seats with news (each gets at
 * least one event), so every classmate's curve advances; a student whose view lags catches up when
 * the class slows or ends. A student who joins late starts from nothing and fills in the same way.
 *
 * A batch (seat, from, to) is read from the store and serialised once per flush and the same
 * string goes to every student at the same point, so serialisation is linear in the class too. A
 * student whose socket is backed up (more than FEED_BUFFER_BYTES not yet sent) is skipped this time
 * (well under the connection's backlog bound, limits.ts, so a slow reader is skipped, not dropped).
 */
import { eventFrames } from './frames';
import type { Room, StudentFeed } from './roomState';
import type { RoomStore } from './store';

export const FEED_BUFFER_BYTES = 512 * 1024;
export const FEED_BYTES_PER_SECOND = 128 * 1024;

export async function flushFeed(room: Room, store: RoomStore, now: number, bytesPerSecond: number): Promise<void> {
  if (room.feedRunning) return;
  room.feedRunning = true;
  room.feedDirty = false;
  try {
    // A freed seat counts as none (a student's `sent` for it is reset when it is freed: hub.ts).
    const counts = room.seats.map((s) => s?.events ?? 0);
    const reads = new Map<string, Promise<string[]>>();
    const frames = new Map<string, string[]>();
    const read = (s: number, from: number, to: number) => {
      const key = `${s}:${from}:${to}`;
      let r = reads.get(key);
      if (!r) reads.set(key, (r = store.readEvents(room.id, s, from, to)));
      return r;
    };
    for (const [peer, feed] of [...room.students]) {
      if (!room.students.has(peer)) continue;
      refill(feed, now, bytesPerSecond);
      const news = counts.map((n, s) => (s !== feed.seat && n > (feed.sent[s] ?? 0) ? s : -1)).filter((s) => s >= 0);
      if (news.length === 0) continue;
      if (feed.budget <= 0 || peer.buffered() > FEED_BUFFER_BYTES) {
        room.feedDirty = true;
        continue;
      }
      const share = feed.budget / news.length;
      // Start at a different seat each time, so no seat is always first in line.
      const start = feed.turn++ % news.length;
      for (let k = 0; k < news.length; k++) {
        const s = news[(start + k) % news.length];
        const from = feed.sent[s] ?? 0;
        const events = await read(s, from, counts[s]);
        // The seat was freed while this batch was read: nothing of it to send.
        if (events.length === 0) continue;
        let n = 1;
        let bytes = events[0].length;
        while (n < events.length && bytes + events[n].length <= share) bytes += events[n++].length;
        const key = `${s}:${from}:${from + n}`;
        let out = frames.get(key);
        if (!out) frames.set(key, (out = eventFrames(s, from, events.slice(0, n))));
        if (!room.students.has(peer)) break;
        for (const f of out) peer.send(f);
        feed.sent[s] = from + n;
        feed.budget -= bytes;
        if (from + n < counts[s]) room.feedDirty = true;
      }
    }
  } finally {
    room.feedRunning = false;
  }
}

function refill(feed: StudentFeed, now: number, bytesPerSecond: number): void {
  feed.budget = Math.min(2 * bytesPerSecond, feed.budget + ((now - feed.refilled) / 1000) * bytesPerSecond);
  feed.refilled = now;
}
