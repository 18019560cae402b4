/**
 * Server-to-client frames, built as strings once and sent to as many connections as need them.
 * An `events` frame is assembled from the stored event JSON (already validated and serialised
 * when it came in) without parsing it again, and split so that no frame exceeds
 * ROOM_LIMITS.frameChars: the page refuses larger ones (parseServerMessage).
 */
import { ROOM_LIMITS, type RoomErrorCode, type ServerMessage } from '../src/room/protocol';

export const frame = (m: ServerMessage): string => JSON.stringify(m);

export const errorFrame = (code: RoomErrorCode, message: string): string => frame({ t: 'error', code, message: message.slice(0, 500) });

const head = (seat: number, from: number) => `{"t":"events","seat":${seat},"from":${from},"events":[`;

/** `events` frames carrying a seat's events from `from` on (`events`: their JSON), each within the frame limit. */
export function eventFrames(seat: number, from: number, events: readonly string[], limit: number = ROOM_LIMITS.frameChars): string[] {
  const frames: string[] = [];
  let start = 0;
  while (start < events.length) {
    let chars = head(seat, from + start).length + 2;
    let end = start;
    // At least one event per frame: an event came in inside a frame of at most `limit` characters.
    while (end < events.length && (end === start || chars + events[end].length + 1 <= limit)) {
      chars += events[end].length + 1;
      end++;
    }
    frames.push(head(seat, from + start) + events.slice(start, end).join(',') + ']}');
    start = end;
  }
  return frames;
}
