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
import { errorText } from '../../room/errors';

/** The client's words for the two refusals a student's page must tell apart (src/room/errors.ts). */
const LOCKED_OUT = errorText('room-locked', '');
const REMOVED = errorText('seat-removed', '');

/** The room's state as this page knows it, one word each: what the status line says follows it. */
export type RoomWord = 'none' | 'connecting' | 'open' | 'locked' | 'running' | 'over' | 'closed' | 'locked-out' | 'removed' | 'offline' | 'elsewhere' | 'left';

type StatusInput = Pick<RoomState, 'status' | 'error' | 'info' | 'role'> & { streaming?: boolean; started?: boolean; seat?: RoomState['seat'] };

export function roomWord(r: StatusInput): RoomWord {
  if (r.role === 'student' && r.status === 'closed' && r.error === LOCKED_OUT) return 'locked-out';
  if (r.role === 'student' && r.status === 'closed' && r.error === REMOVED) return 'removed';
  if (r.info?.status === 'closed') return 'closed';
  switch (r.status) {
    case 'connecting':
      return 'connecting';
    case 'offline':
      return 'offline';
    case 'elsewhere':
      return 'elsewhere';
    case 'closed':
      return 'left';
    case 'online':
      if (!r.info) return 'connecting';
      if (r.info.status === 'running') return r.info.seats.length > 0 && r.info.seats.every((x) => x.done) ? 'over' : 'running';
      return r.info.locked ? 'locked' : 'open';
    default:
      return 'none';
  }
}

/**
 * The status line's words: the room's true state (open, locked, running, over, closed) and, for a
 * student, what becomes of their run (only one that started goes on here; a student locked out
 * has none, a removed one is no longer in the class).
 */
export function statusText(r: StatusInput): string {
  const student = r.role === 'student';
  // A seat training one member of a pair needs its partner's answers through the room: out of the
  // room its run stops (seatRun.ts endMemberPart) and cannot go on alone.
  // A finished run goes on nowhere: nothing is said of it.
  const memberPart = r.seat != null && r.seat.member !== null && !r.seat.alone;
  const goesOn = !student || !r.started || r.seat?.done ? '' : memberPart ? " Your part of your pair's run stopped: it cannot go on without the room." : ' Your run goes on here alone and is saved in this browser.';
  const locked = r.info?.locked ? ', locked to new students' : '';
  const error = r.error ? ` ${r.error}` : '';
  switch (roomWord(r)) {
    case 'locked-out':
      return 'The presenter has locked this room to new students, so you have no seat in it. Ask them to unlock it, then reload this page.';
    case 'removed':
      return `The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room.${goesOn}`;
    case 'closed':
      return student ? `The room is closed: nothing more is sent to it.${goesOn}` : 'The room is closed: nobody can join it and nothing more is stored. Create a new room for another run.';
    case 'connecting':
      return r.status === 'online' ? 'Online.' : 'Connecting to the room server…';
    case 'open':
      return `Online: room open, waiting for Start.${error}`;
    case 'locked':
      return `Online: room open, waiting for Start, locked to new students.${error}`;
    case 'running':
      return `Online: room running${locked}.${error}`;
    case 'over':
      return `Online: the class run is over${locked}.${error}`;
    case 'offline':
      return `Offline: ${(r.error ?? 'the room server cannot be reached').replace(/\.$/, '')}. Trying again…${!student ? '' : r.streaming === false ? ' Your run goes on here alone (the room refused part of it) and is saved in this browser.' : ' Your run goes on, and its results are sent when the room is back.'}`;
    case 'elsewhere':
      return `${r.error ?? 'This seat is open in another tab.'} The seat streams from one tab at a time: to go on in this one, use it here (the other tab then waits).`;
    case 'left':
      return `${r.error ?? 'Left the room.'}${goesOn}`;
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

export function RoomStatusLine({ room: r }: { room: Pick<RoomState, 'status' | 'error' | 'info' | 'role' | 'streaming' | 'started' | 'seat'> }) {
  const askServer = useLab((s) => s.room.askServer);
  const linkWarning = useLab((s) => (s.room.role === 'presenter' ? s.room.linkWarning : null));
  if (askServer) return <AskServer server={askServer} />;
  return (
    <>
      <p role="status" className={`room-status room-${r.status ?? 'none'}`} data-testid="room-status" data-status={r.status ?? 'none'} data-state={roomWord(r)}>
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
