/**
 * What a page may say of its seats' connections. The seats' "connected" comes from the room
 * server's last word (RoomInfo); while this page cannot reach the server that word is stale, so
 * the page says it does not know (with the server down, the seats table still
 * said "connected: yes"). Pure: the table, the class's summary line and the projector use it.
 */
import type { RoomInfo } from '../../room/protocol';

/** `online`: this page's connection to the room server is up (room status 'online'). A closed room has no connections to tell. */
export function seatConnected(connected: boolean, online: boolean, closed = false): { text: string; known: boolean } {
  if (closed) return { text: 'no: the room is closed', known: true };
  if (!online) return { text: 'unknown: the room server is unreachable', known: false };
  return { text: connected ? 'yes' : 'no', known: true };
}

/** "3 connected", or that nobody can tell while the server is unreachable. */
export function connectedCount(info: Pick<RoomInfo, 'seats'> & Partial<Pick<RoomInfo, 'status'>>, online: boolean): string {
  if (info.status === 'closed') return 'the room is closed';
  if (!online) return 'connections unknown while the room server is unreachable';
  return `${info.seats.filter((x) => x.connected).length} connected`;
}
