/** The connection to the room in words (a status line both the presenter and a student see). */
import type { RoomState } from '../store/roomSlice';

export function statusText(r: Pick<RoomState, 'status' | 'error' | 'info' | 'role'>): string {
  const alone = r.role === 'student' ? ' Your run goes on here alone.' : '';
  if (r.info?.status === 'closed') return `The room is closed.${alone}`;
  switch (r.status) {
    case 'connecting':
      return 'Connecting to the room server…';
    case 'online':
      return r.info ? `Online: room ${r.info.status === 'running' ? 'running' : 'open, waiting for Start'}.${r.error ? ` ${r.error}` : ''}` : 'Online.';
    case 'offline':
      return `Offline: ${(r.error ?? 'the room server cannot be reached').replace(/\.$/, '')}. Trying again…${r.role === 'student' ? ' Your run goes on, and its results are sent when the room is back.' : ''}`;
    case 'closed':
      return `${r.error ?? 'Left the room.'}${alone}`;
    default:
      return 'Not in a room.';
  }
}

export function RoomStatusLine({ room }: { room: Pick<RoomState, 'status' | 'error' | 'info' | 'role'> }) {
  return (
    <p role="status" className={`room-status room-${room.status ?? 'none'}`} data-testid="room-status" data-status={room.status ?? 'none'}>
      {statusText(room)}
    </p>
  );
}
