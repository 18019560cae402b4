/**
 * A room opened from the page's address: ?room=&server= read once at start presents the room again
 * (this browser made it and holds its key: a presenter's reload, the projector view remembered) or
 * joins it as a student; a join code typed on the lab's address opens its room's link; and leaving
 * takes the link out of the address bar, so the lab works alone again, also after a reload.
 */
import { connectRoom } from '../../room/client';
import { readJoinCode } from '../../room/joinCode';
import { useSavedRuns } from '../runs/runsController';
import { tapWorkerEvents } from '../trainingWorker';
import { projectorRemembered } from './projector';
import { follow, shareLink } from './roomFeed';
import { checkServerUrl, joinLink, linkRole, withoutRoom } from './roomLink';
import { findRoomServer, pageLocation, pageStorage, showInAddressBar } from './roomPage';
import { disconnect, session, setRoom, state, stream } from './roomSession';
import { maybeStartSeat } from './seatRun';

/**
 * Read ?room=&server= once at start: present the room again (this browser made it: a
 * presenter's reload), join it as a student, or say in words why not (the lab works alone).
 * A link naming a server on another host than the page's is only joined once the student says
 * yes (linkRole's `ask`): until then nothing connects to it.
 */
export function startRoomFromUrl(search = window.location.search): () => void {
  const p = linkRole(search, pageLocation(), pageStorage());
  if (p.kind === 'none') return () => {};
  if (p.kind === 'bad') {
    setRoom({ notice: p.problem });
    return () => {};
  }
  if (p.role.kind === 'presenter' && 'room' in p.role) {
    const client = connectRoom(p.server, p.role);
    session.client = client;
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl: p.server, status: client.status });
    shareLink(client, p.role.room);
    // H3: the projector view reopens after a reload if it was on for this room.
    setRoom({ projector: projectorRemembered(pageStorage(), p.role.room) });
    follow(client);
    return () => disconnect();
  }
  const role = p.role;
  const server = p.server;
  let unsub = () => {};
  const join = () => {
    session.untap ??= tapWorkerEvents((events) => stream.take(events));
    const client = connectRoom(server, role);
    session.client = client;
    setRoom({ role: 'student', serverUrl: server, status: client.status, askServer: null });
    follow(client);
    // The saved runs load after the page: a seat waiting to resume looks again then.
    unsub = useSavedRuns.subscribe((s, prev) => {
      if (s.loaded && !prev.loaded) void maybeStartSeat();
    });
  };
  if (p.ask) {
    session.askedJoin = join;
    setRoom({ role: 'student', serverUrl: server, askServer: server });
  } else join();
  return () => {
    session.askedJoin = null;
    unsub();
    disconnect();
  };
}

export const linkActions = {
  /**
   * A student typed a room's join code on the lab's address: the room server (the panel's address,
   * found as for a presenter) names the room, and the page opens its join link. False, with the
   * reason in words, when the code cannot be one or leads to no open room.
   */
  async joinWithCode(typed: string): Promise<boolean> {
    const code = readJoinCode(typed);
    if (!code) {
      setRoom({ error: 'A join code is six letters and digits, as the projector shows it (e.g. K7Q 3MX).' });
      return false;
    }
    if (!state().room.serverUrl) {
      setRoom({ panelOpen: true });
      await findRoomServer();
    }
    const server = checkServerUrl(state().room.serverUrl);
    if (!server.ok) {
      setRoom({ error: `Check the room server's address: ${server.problem}.` });
      return false;
    }
    const http = server.value.replace(/^ws/, 'http').replace(/\/room$/, '');
    let answer: { room?: unknown; error?: unknown };
    try {
      const res = await fetch(`${http}/code/${code}`, { headers: { Accept: 'application/json' } });
      answer = (await res.json()) as typeof answer;
    } catch {
      setRoom({ error: `The room server at ${http} could not be asked: open the address your teacher gave, or ask for the link.` });
      return false;
    }
    if (typeof answer.room !== 'string' || !/^[A-Za-z0-9_-]{22}$/.test(answer.room)) {
      setRoom({ error: typeof answer.error === 'string' ? answer.error.slice(0, 200) : 'No open room has this code.' });
      return false;
    }
    window.location.assign(joinLink(window.location.href, answer.room, server.value));
    return true;
  },

  /** A student asked about a link's room server on another host: join through it. */
  joinAskedServer(): void {
    const join = session.askedJoin;
    session.askedJoin = null;
    join?.();
  },

  /** ... or not: nothing was sent to it, and the lab works alone. */
  declineAskedServer(): void {
    const server = state().room.askServer;
    linkActions.leave();
    if (server) setRoom({ notice: `You did not join the class room on ${server}: nothing was sent to it, and the lab works alone.` });
  },

  /** Leave the room (presenter or student): the lab works alone again, also after a reload. */
  leave(): void {
    session.askedJoin = null;
    disconnect();
    showInAddressBar(withoutRoom(window.location.href));
    state().resetRoom({ panelOpen: state().room.panelOpen, serverUrl: state().room.serverUrl, pairing: state().room.pairing });
  },
};
