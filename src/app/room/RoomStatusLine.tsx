/**
 * The connection to the room in words (a status line both the presenter and a student see), and
 * what a student decides there: whether to connect to a join link's room server on
 * another host (nothing is sent to it before "Join"), and whether to take a seat that is open in
 * another tab into this one. A presenter also reads here why students' devices may not open the
 * join link (a page on localhost).
 */
import { useLab } from '../store';
import type { RoomState } from '../store/roomSlice';
import { room } from './roomController';
import { serverHost } from './roomLink';

export function statusText(r: Pick<RoomState, 'status' | 'error' | 'info' | 'role'> & { streaming?: boolean }): string {
  const alone = r.role === 'student' ? ' Your run goes on here alone.' : '';
  if (r.info?.status === 'closed') return `The room is closed.${alone}`;
  switch (r.status) {
    case 'connecting':
      return 'Connecting to the room server…';
    case 'online':
      return r.info
        ? `Online: room ${r.info.status === 'running' ? 'running' : 'open, waiting for Start'}${r.info.locked ? ', locked to new students' : ''}.${r.error ? ` ${r.error}` : ''}`
        : 'Online.';
    case 'offline':
      return `Offline: ${(r.error ?? 'the room server cannot be reached').replace(/\.$/, '')}. Trying again…${r.role !== 'student' ? '' : r.streaming === false ? ' Your run goes on here alone (the room refused part of it) and is saved in this browser.' : ' Your run goes on, and its results are sent when the room is back.'}`;
    case 'elsewhere':
      return `${r.error ?? 'This seat is open in another tab.'} The seat streams from one tab at a time: to go on in this one, use it here (the other tab then waits).`;
    case 'closed':
      return `${r.error ?? 'Left the room.'}${alone}`;
    default:
      return 'Not in a room.';
  }
}

/** Before connecting to a link's room server on another host: the question, in words naming it. */
function AskServer({ server }: { server: string }) {
  const host = serverHost(server);
  return (
    <div role="group" aria-label="Join the class room?" className="notice notice-warn room-ask" data-testid="room-ask">
      <p>
        This link joins a class room on a server at <strong data-testid="room-ask-host">{host}</strong> ({server}), not on this page&apos;s own server. Join only if your
        teacher gave you this link: nothing has been sent to that server, and until you choose nothing is.
      </p>
      <button type="button" className="primary" data-testid="room-ask-join" onClick={() => room.joinAskedServer()}>
        Join the room on {host}
      </button>{' '}
      <button type="button" data-testid="room-ask-decline" onClick={() => room.declineAskedServer()}>
        Don&apos;t join
      </button>
    </div>
  );
}

export function RoomStatusLine({ room: r }: { room: Pick<RoomState, 'status' | 'error' | 'info' | 'role'> }) {
  const askServer = useLab((s) => s.room.askServer);
  const linkWarning = useLab((s) => (s.room.role === 'presenter' ? s.room.linkWarning : null));
  if (askServer) return <AskServer server={askServer} />;
  return (
    <>
      <p role="status" className={`room-status room-${r.status ?? 'none'}`} data-testid="room-status" data-status={r.status ?? 'none'}>
        {statusText(r)}
      </p>
      {r.status === 'elsewhere' && r.role === 'student' && (
        <button type="button" className="primary" data-testid="room-use-here" onClick={() => room.useThisTab()}>
          Use this tab here
        </button>
      )}
      {linkWarning && (
        <p className="notice notice-warn" data-testid="room-link-warning">
          {linkWarning}
        </p>
      )}
    </>
  );
}
