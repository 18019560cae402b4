/**
 * The students' view of the class: once a second (the hub's timer), each student connection is
 * sent, for every other seat, the events stored since its last batch (one `events` frame per seat,
 * split at the frame limit). The traffic stays linear in the class per stored event: an event is
 * never forwarded on its own to every student; each batch (seat, from, to) is read from the store
 * and serialised once and the same string goes to every student at the same point, so 60
 * students cost 60 socket writes per seat per second, not 60 per event per step.
 *
 * A student who joins (or rejoins) late starts from nothing and gets the backlog in its first
 * batch. A student whose socket is backed up (a slow link: more than FEED_BUFFER_BYTES not yet
 * sent) is skipped this time and gets a larger batch later, so a slow link never makes the server
 * buffer without bound.
 */
import { eventFrames } from './frames';
import type { Room } from './roomState';
import type { RoomStore } from './store';

export const FEED_BUFFER_BYTES = 4 * 1024 * 1024;

export async function flushFeed(room: Room, store: RoomStore): Promise<void> {
  if (room.feedRunning) return;
  room.feedRunning = true;
  room.feedDirty = false;
  try {
    const counts = room.seats.map((s) => s.events);
    const batches = new Map<string, Promise<string[]>>();
    for (const [peer, feed] of [...room.students]) {
      if (peer.buffered() > FEED_BUFFER_BYTES) {
        room.feedDirty = true;
        continue;
      }
      for (let s = 0; s < counts.length; s++) {
        const from = feed.sent[s] ?? 0;
        const to = counts[s];
        if (s === feed.seat || to <= from) continue;
        const key = `${s}:${from}:${to}`;
        let batch = batches.get(key);
        if (!batch) {
          batch = store.readEvents(room.id, s, from, to).then((events) => eventFrames(s, from, events));
          batches.set(key, batch);
        }
        const frames = await batch;
        if (!room.students.has(peer)) break;
        for (const f of frames) peer.send(f);
        feed.sent[s] = to;
      }
    }
  } finally {
    room.feedRunning = false;
  }
}
