/**
 * Class mode in the page: what the Class room panel's buttons do and what a join link does. The
 * presenter creates a room (the experiment on screen), shares the link and its QR code, starts
 * and closes it and exports every seat's run as one file; a student's page joins from the link,
 * takes the room's experiment with its seat's seed, starts when the room does (or at once if it
 * already runs; a saved run of the seat is resumed), and streams its run's events to the room.
 * Where the room cannot be reached or closes, the page says so and the student's run goes on.
 * The class's events become results the seeds machinery draws (classRecords.ts), rebuilt at most
 * once a second. In a paired room a seat trains its member of the peer arm (a member part, saved
 * and resumed as one) and its exchanges go through the room (pairing.ts); the class is one run per
 * pair. The presenter's address bar shows the room's link, so a reload presents the room again
 * (this browser holds its key; roomLink.ts linkRole); Leave takes the link out of it.
 */
import { getPreset } from '../../core/experiment/presets';
import { isActivePhase } from '../../engine/protocol';
import { type RoomConnection, connectRoom } from '../../room/client';
import type { KeyValueStore } from '../../room/secrets';
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import { validationOf } from '../controls/validation';
import { downloadText } from '../lib/download';
import { canonicalJson, lastRunOf } from '../runs/lastRun';
import { savedRuns, useSavedRuns } from '../runs/runsController';
import { useLab } from '../store';
import { inRoom } from '../store/roomSlice';
import { lab, tapWorkerEvents } from '../trainingWorker';
import { ClassRecords } from './classRecords';
import { seatEvent } from '../../room/seatOutbox';
import { readJoinCode } from '../../room/joinCode';
import type { RecordedEvent } from '../store/record';
import { type Relay, memberPartOf, relayExchanges, startPairedSeat } from './pairing';
import { type PageLocation, checkServerUrl, defaultPortServer, joinAddress, joinLink, linkRole, sameOriginServer, withoutRoom } from './roomLink';
import { roomRunFile } from './roomExport';
import { SeatStream } from './seatStream';
import { projectorRemembered, rememberProjector } from './projector';
import { runAgainSeed } from './classProgress';
import { seatPresetFor } from './seatPreset';

/** How often the class's results are rebuilt, at most. */
export const RESULTS_EVERY_MS = 1000;
/** How long the same-origin room server is given to answer before the default port is assumed. */
const PROBE_MS = 1500;

let client: RoomConnection | null = null;
let unsubscribe: (() => void) | null = null;
const records = new ClassRecords();
let resultsTimer: ReturnType<typeof setTimeout> | null = null;
const stream = new SeatStream((from, events) => {
  client?.pushEvents(from, events);
  ownEvents(from, events);
});
let untap: (() => void) | null = null;
/** A paired seat's exchanges relayed through the room (null: not a paired seat, or not started). */
let relay: Relay | null = null;

const state = () => useLab.getState();
const setRoom = (patch: Parameters<ReturnType<typeof state>['setRoom']>[0]) => state().setRoom(patch);

function pageLocation(): PageLocation {
  const l = window.location;
  return { protocol: l.protocol, host: l.host, hostname: l.hostname, origin: l.origin, pathname: l.pathname };
}

/** Rebuild the class's results soon (at most once a second). */
function resultsSoon(): void {
  if (resultsTimer !== null) return;
  resultsTimer = setTimeout(() => {
    resultsTimer = null;
    const info = state().room.info;
    if (!info) return;
    // A room ended before every run finished: the class's numbers are over the runs that finished.
    const all = records.results(info);
    const results = info.status === 'closed' ? all.filter((r) => r.finished) : all;
    const dropped = records.dropped.map((d) => `${d.label} (${d.reason})`);
    setRoom(
      dropped.length > 0
        ? { results, notice: `Left out of the class's results because its events could not be read: ${dropped.join('; ')}.` }
        : { results },
    );
  }, RESULTS_EVERY_MS);
}

/**
 * A student's own run is one of the class's runs: the room forwards each student the others' events
 * only, so the seat's own events join the class's runs here, in the shape the room stores them
 * (seatEvent). Every page then means over the same runs the projector does, the student's included.
 */
function ownEvents(from: number, events: readonly RecordedEvent[]): void {
  const { role, seat } = state().room;
  if (role !== 'student' || !seat) return;
  if (records.merge(seat.index, from, events.map(seatEvent))) resultsSoon();
}

function follow(c: RoomConnection): void {
  unsubscribe?.();
  unsubscribe = c.subscribe((ev) => {
    if (client !== c) return;
    switch (ev.type) {
      case 'status':
        setRoom({ status: ev.status, error: ev.error, streaming: ev.streaming });
        return;
      case 'created': {
        // A reload opens the room's link, and this browser (it holds the key) presents the room again.
        showInAddressBar(joinLink(window.location.href, ev.room, c.url));
        // A room made by "Run again" keeps the projector view on (and after a reload).
        if (state().room.projector) rememberProjector(pageStorage(), ev.room, true);
        shareLink(c, ev.room);
        return;
      }
      // H2: the server's LAN addresses can make a localhost page's link reachable.
      case 'addresses':
        if (c.roomId) shareLink(c, c.roomId);
        return;
      case 'room':
        roomChanged(ev.room);
        return;
      case 'seat':
        setRoom({ seat: ev.seat });
        seatChanged(ev.seat);
        return;
      case 'events':
        if (records.merge(ev.seat, ev.from, ev.events)) resultsSoon();
        stepsCame(ev.seat, ev.events);
        return;
      case 'acked':
        setRoom({ stream: { acked: ev.acked, held: c.heldEvents } });
        return;
    }
  });
}

/**
 * The seats table's step as a seat's events come: the room message says a seat's last step only
 * when it sends its first event and when it ends, so without this the table would jump from 0 to
 * the end. The next room message holds at least this step (the server stores before it forwards).
 */
function stepsCame(index: number, events: readonly { type: string; step?: number }[]): void {
  const info = state().room.info;
  const seat = info?.seats.find((x) => x.index === index);
  if (!info || !seat) return;
  let step = seat.lastStep;
  for (const e of events) if (e.type === 'step' && e.step !== undefined && e.step > step) step = e.step;
  if (step === seat.lastStep) return;
  setRoom({ info: { ...info, seats: info.seats.map((x) => (x.index === index ? { ...x, lastStep: step } : x)) } });
}

/**
 * H2: the link students get (and its QR code), with a warning in words where
 * their devices cannot open it (roomLink.ts joinAddress). The address bar keeps this page's own.
 */
function shareLink(c: RoomConnection, roomId: string): void {
  const { link, warning } = joinAddress(window.location.href, roomId, c.url, c.lanOrigins);
  setRoom({ link, linkWarning: warning });
}

function roomChanged(info: RoomInfo): void {
  const before = state().room.info;
  // In order with the events: a freed seat's events go before a newcomer on its index sends its own.
  records.seatsNow(info.seats, state().room.role === 'student' ? (state().room.seat?.index ?? null) : null);
  setRoom({ info });
  // The presenter's page shows the room's experiment (its base seed), also after a reload, so its
  // reference run and question are the room's.
  if (state().room.role === 'presenter' && (!before || canonicalJson(before.spec) !== canonicalJson(info.spec))) {
    const shown = state();
    if (canonicalJson(shown.draft) !== canonicalJson(info.spec)) showRoomExperiment(info, null);
  }
  if (state().room.role === 'student') {
    const seat = info.seats.find((x) => x.index === state().room.seat?.index);
    if (seat) setRoom({ seat });
    // The partner came, left or came back: the wait's words follow.
    relay?.partnerChanged();
    if (!before || canonicalJson(before.spec) !== canonicalJson(info.spec)) showRoomExperiment(info, state().room.seat);
    void maybeStartSeat();
  }
  resultsSoon();
}

// ------------------------------------------------------------------ presenter

export const room = {
  /** Open the panel; the first time, find the room server (same origin if it answers there). */
  async open(): Promise<void> {
    setRoom({ panelOpen: true });
    if (state().room.serverUrl) return;
    const loc = pageLocation();
    const same = sameOriginServer(loc);
    setRoom({ serverUrl: (await answers(same)) ? same : defaultPortServer(loc) });
  },

  close(): void {
    setRoom({ panelOpen: false });
  },

  setServerUrl(serverUrl: string): void {
    setRoom({ serverUrl });
  },

  setPairing(pairing: boolean): void {
    setRoom({ pairing });
  },

  /** Create a room for the experiment on screen. False (with the reason in `error`) when it cannot. */
  create(): boolean {
    const s = state();
    const server = checkServerUrl(s.room.serverUrl);
    if (!server.ok) {
      setRoom({ error: `Check the address: ${server.problem}.` });
      return false;
    }
    const v = validationOf(s.draft);
    if (!v.ok) {
      setRoom({ error: `Fix the experiment first: ${v.problems[0].message}` });
      return false;
    }
    if (s.room.pairing && !v.spec.arms.some((a) => a.scheme === 'peer' && a.members.length === 2)) {
      setRoom({ error: 'Pairing needs a peer arm of two members: choose a preset with one (e.g. peers-learn).' });
      return false;
    }
    leave();
    // H3: a seed is no edit (seatPreset.ts), and the room's name is the preset's title, not its id.
    const match = seatPresetFor(v.spec, s.presetId, s.presetId);
    const preset = !match.edited && getPreset(match.presetId) ? match.presetId : null;
    const name = `${preset ? getPreset(preset)!.title : 'An edited experiment'}, seed ${v.spec.seed}`;
    client = connectRoom(server.value, { kind: 'presenter', create: { name, preset, spec: v.spec, baseSeed: v.spec.seed, pairing: s.room.pairing } });
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl: s.room.serverUrl, pairing: s.room.pairing, status: client.status });
    follow(client);
    return true;
  },

  startForEverybody(): boolean {
    const ok = client?.start() ?? false;
    if (!ok) setRoom({ error: 'The room server cannot be reached now: try again when the status says online.' });
    return ok;
  },

  closeRoom(): boolean {
    const ok = client?.closeRoom() ?? false;
    if (!ok) setRoom({ error: 'The room server cannot be reached now: try again when the status says online.' });
    return ok;
  },

  /**
   * End the class's run now (one missing partner or a slow browser no longer holds everybody): the
   * room closes, and the class's numbers are over the runs that had finished (resultsSoon).
   */
  endNow(): boolean {
    return room.closeRoom();
  },

  /**
   * Run the same experiment again with new seeds: this room closes and a new one opens with the
   * base seed after every seed this room handed out (runAgainSeed), so no seat's saved run of the
   * last round is taken for this one; students join it through its new link and code.
   */
  runAgain(): boolean {
    const s = state();
    const info = s.room.info;
    if (s.room.role !== 'presenter' || !info || (s.room.status !== 'online' && info.status !== 'closed')) {
      setRoom({ error: 'The room server cannot be reached now: try again when the status says online.' });
      return false;
    }
    const base = runAgainSeed(info);
    if (info.status !== 'closed') client?.closeRoom();
    const { serverUrl, projector } = s.room;
    leave();
    const name = `${info.name.replace(/, seed \d+$/, '')}, seed ${base}`;
    client = connectRoom(serverUrl, { kind: 'presenter', create: { name, preset: info.preset, spec: { ...info.spec, seed: base }, baseSeed: base, pairing: info.pairing } });
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl, pairing: info.pairing, status: client.status, projector });
    follow(client);
    return true;
  },

  // ---- H2: the teacher's controls, a seat in two tabs, a foreign server

  /** Presenter: lock the room to new students, or open it again. */
  setLocked(locked: boolean): boolean {
    const ok = client?.lock(locked) ?? false;
    if (!ok) setRoom({ error: 'The room server cannot be reached now: try again when the status says online.' });
    return ok;
  },

  /** Presenter: remove a seat (the seats table asks first); its student is told, the seat is freed. */
  removeSeat(seat: number): boolean {
    const ok = client?.removeSeat(seat) ?? false;
    if (!ok) setRoom({ error: 'The room server cannot be reached now: try again when the status says online.' });
    return ok;
  },

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
    if (!state().room.serverUrl) await room.open();
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

  /** A student whose seat is open in another tab: take it in this one ("Use this tab here"). */
  useThisTab(): boolean {
    return client?.takeOver() ?? false;
  },

  /** A student asked about a link's room server on another host: join through it. */
  joinAskedServer(): void {
    const join = askedJoin;
    askedJoin = null;
    join?.();
  },

  /** ... or not: nothing was sent to it, and the lab works alone. */
  declineAskedServer(): void {
    const server = state().room.askServer;
    room.leave();
    if (server) setRoom({ notice: `You did not join the class room on ${server}: nothing was sent to it, and the lab works alone.` });
  },

  /** Every run of the class with an RL step (seats, or pairs) as one run file (roomExport.ts); false when there is none. */
  exportRoom(): boolean {
    const info = state().room.info;
    const file = info ? roomRunFile(info, records.records(info)) : null;
    if (!file || !file.ok) {
      setRoom({ error: file?.problem ?? 'No browser has trained an RL step yet: nothing to export.' });
      return false;
    }
    downloadText(file.name, file.text, 'application/json');
    return true;
  },

  /** Leave the room (presenter or student): the lab works alone again, also after a reload. */
  leave(): void {
    askedJoin = null;
    leave();
    showInAddressBar(withoutRoom(window.location.href));
    state().resetRoom({ panelOpen: state().room.panelOpen, serverUrl: state().room.serverUrl, pairing: state().room.pairing });
  },
};

function leave(): void {
  relay?.stop();
  relay = null;
  unsubscribe?.();
  unsubscribe = null;
  client?.close();
  client = null;
  records.clear();
  stream.follow(0);
  if (resultsTimer !== null) clearTimeout(resultsTimer);
  resultsTimer = null;
}

/** Whether a WebSocket opens at `url` within PROBE_MS (the page served by the room server). */
function answers(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    let ws: WebSocket;
    try {
      ws = new WebSocket(url);
    } catch {
      resolve(false);
      return;
    }
    const done = (ok: boolean) => {
      clearTimeout(timer);
      ws.onopen = ws.onerror = null;
      try {
        ws.close();
      } catch {
        // closed
      }
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), PROBE_MS);
    ws.onopen = () => done(true);
    ws.onerror = () => done(false);
  });
}

// ------------------------------------------------------------------ student

/** The page's localStorage (null where the browser refuses it). */
function pageStorage(): KeyValueStore | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** The address bar shows `url` (same origin), with no new history entry. */
function showInAddressBar(url: string): void {
  try {
    if (url !== window.location.href) window.history.replaceState(window.history.state, '', url);
  } catch {
    // A page the browser does not let change its address: a reload then does not come back.
  }
}

/** H2: the join that waits for its student's yes (a link's server on another host). */
let askedJoin: (() => void) | null = null;

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
    client = connectRoom(p.server, p.role);
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl: p.server, status: client.status });
    shareLink(client, p.role.room);
    // H3: the projector view reopens after a reload if it was on for this room.
    setRoom({ projector: projectorRemembered(pageStorage(), p.role.room) });
    follow(client);
    return () => leave();
  }
  const role = p.role;
  const server = p.server;
  let unsub = () => {};
  const join = () => {
    untap ??= tapWorkerEvents((events) => stream.take(events));
    client = connectRoom(server, role);
    setRoom({ role: 'student', serverUrl: server, status: client.status, askServer: null });
    follow(client);
    // The saved runs load after the page: a seat waiting to resume looks again then.
    unsub = useSavedRuns.subscribe((s, prev) => {
      if (s.loaded && !prev.loaded) void maybeStartSeat();
    });
  };
  if (p.ask) {
    askedJoin = join;
    setRoom({ role: 'student', serverUrl: server, askServer: server });
  } else join();
  return () => {
    askedJoin = null;
    unsub();
    leave();
  };
}

/** The seat's experiment: the room's, with the seat's seed. */
function seatSpec(info: RoomInfo, seat: SeatInfo | null) {
  return { ...info.spec, seed: seat?.seed ?? info.baseSeed };
}

function showRoomExperiment(info: RoomInfo, seat: SeatInfo | null): void {
  const spec = seatSpec(info, seat);
  const { presetId, edited } = seatPresetFor(spec, info.preset, state().presetId);
  state().loadSpec(presetId, spec, edited);
}

function seatChanged(seat: SeatInfo): void {
  const info = state().room.info;
  if (info) showRoomExperiment(info, seat);
  void maybeStartSeat();
}

let starting = false;

/** Start (or resume) the seat's run once the room runs; never before the presenter's start. */
async function maybeStartSeat(): Promise<void> {
  const s = state();
  const { info, seat, started, role } = s.room;
  if (role !== 'student' || started || starting || !info || !seat || !inRoom(s)) return;
  if (info.status !== 'running') return;
  if (!useSavedRuns.getState().loaded) return;
  if (isActivePhase(s.run.phase)) return;
  starting = true;
  try {
    const spec = seatSpec(info, seat);
    // A paired room: this seat trains one member of the peer arm, its partner the other.
    const memberPart = info.pairing ? memberPartOf(info.spec, seat) : null;
    if (info.pairing && !memberPart) {
      setRoom({ error: "This seat has no member of the room's peer arm to train: leave the room and join again." });
      return;
    }
    const saved = lastRunOf(useSavedRuns.getState().metas, spec, memberPart);
    // The relay is in place before the run starts: its first exchange (the base's evaluation) comes soon.
    if (memberPart && client && !relay && saved?.status !== 'done') relay = relayExchanges(lab, client, { partner: partnerOfSeat, onWait: (partnerWait) => setRoom({ partnerWait }) });
    if (saved && saved.status === 'done') {
      // Finished before (a reload after the end): shown, and sent in case the room lacks some of it.
      await savedRuns.open(saved.id);
      const events = await savedRuns.events(saved.id);
      if (events) stream.sendAll(events);
    } else if (saved && saved.status !== 'halted') {
      // The stream follows the resumed run before the worker starts it, at positions from the
      // saved events the run keeps (not the run's step: that is null for a checkpoint of the base).
      if (!(await savedRuns.resume(saved.id, { follow: (runId, kept) => stream.followResumed(runId, kept) }))) return;
    } else {
      showRoomExperiment(info, seat);
      if (!(memberPart ? startPairedSeat(lab, info.spec, seat) : lab.start({ seed: seat.seed }))) {
        setRoom({ error: 'This run could not be started: reload the page.' });
        return;
      }
      stream.follow(state().run.runId);
    }
    setRoom({ started: true });
  } finally {
    starting = false;
  }
}

/** The partner's seat and whether it is connected now (a paired seat's wait says it). */
function partnerOfSeat(): { seat: number | null; connected: boolean } {
  const { info, seat } = state().room;
  const partner = seat?.partner ?? null;
  return { seat: partner, connected: partner !== null && (info?.seats.find((x) => x.index === partner)?.connected ?? false) };
}

/** Tests and the e2e: the connection in use (null: none). */
export function roomConnection(): RoomConnection | null {
  return client;
}
