/**
 * The room server's errors in words for the page, and which of them end a connection for good
 * (the room cannot be had: there is no point in reconnecting). The codes are the protocol's
 * (ROOM_ERROR_CODES, protocol.ts); the server's own message follows the words.
 */
import type { RoomErrorCode } from './protocol';

/**
 * The server's error codes that end the connection for good (the room cannot be had). Never
 * `server-error`: the server failed, not the request, and the page tries again.
 */
export const FATAL: readonly RoomErrorCode[] = ['no-such-room', 'room-closed', 'room-full', 'not-allowed', 'version', 'seat-in-use', 'room-locked', 'seat-removed'];

/** An error from the server, in words for the page. */
export function errorText(code: RoomErrorCode, message: string): string {
  const what: Record<RoomErrorCode, string> = {
    'bad-message': 'The room server refused a message',
    'too-large': 'A message was too large for the room server',
    'rate-limited': 'The room server asked this page to slow down',
    'no-such-room': 'There is no such room on this server (it may have expired)',
    'room-closed': 'The room is closed',
    'room-full': 'The room is full',
    'not-allowed': 'The room server did not allow that',
    'bad-seat': 'The room server did not know this seat',
    'out-of-order': 'The room server expected other events',
    version: 'The room server speaks another version of class mode: reload the page',
    'seat-in-use': 'This seat is open in another tab',
    'room-locked': 'The presenter locked the room to new students',
    'seat-removed': 'The presenter removed this seat from the room',
    'over-quota': 'The room server is at one of its limits',
    timeout: 'The room server closed a connection that was too slow',
    'server-error': 'The room server could not store that (its log says why); nothing of it was kept; this page tries again',
  };
  return message ? `${what[code]}: ${message}` : `${what[code]}.`;
}
