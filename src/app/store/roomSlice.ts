/**
 * Room slice: class mode as the page shows it. A presenter's room (its join link, its
 * seats, Start for everybody, Close) or a student's seat (the room's experiment, the seat's seed,
 * the connection's status in words), and the class's runs as results the seeds machinery draws
 * (`results`: one per browser, bands and claims over them; src/app/room/classRecords.ts).
 * The connection itself is src/room/client.ts, driven by src/app/room/roomController.ts: the store
 * does not talk to the network.
 */
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import type { RoomStatus } from '../../room/client';
import type { SeedUnit } from './series';
import type { SeedResult } from './seedsSlice';
import type { LabSlice, LabState } from './types';

export type RoomRoleName = 'presenter' | 'student';

/** A paired seat waiting on its partner's answers (src/app/room/pairing.ts). */
export interface PartnerWait {
  partner: number | null;
  /** The partner's seat is not connected: the run waits for them. */
  left: boolean;
}

export interface RoomState {
  /** The Class room panel is open. */
  panelOpen: boolean;
  role: RoomRoleName | null;
  /** The room server's address in the panel's field (checked when used). */
  serverUrl: string;
  /** The next room pairs its students (seats 2k and 2k+1 train the peer arm's two members). */
  pairing: boolean;
  status: RoomStatus | null;
  /** What went wrong last, in words (null: nothing). */
  error: string | null;
  /** A student's events still go to the room (false: the room refused one for good, and the run goes on here alone). */
  streaming: boolean;
  /** A join link the page could not use, in words; the lab works alone. */
  notice: string | null;
  info: RoomInfo | null;
  /** The presenter's join link (null: no room yet); on a localhost page the LAN one where it can be (roomLink.ts joinAddress). */
  link: string | null;
  /** H2: why students' devices may not open `link`, in words (null: they can). */
  linkWarning: string | null;
  /** H2: a join link's room server on another host, which the page asks about before it connects (null: not asking). */
  askServer: string | null;
  /** A student's seat. */
  seat: SeatInfo | null;
  /** A student: the events the room holds of this seat's run, and those this page holds. */
  stream: { acked: number; held: number };
  /** A student's run started (it waits for the room before). */
  started: boolean;
  /** The class's runs, one per browser with an RL step, in seat order. */
  results: SeedResult[];
  /** A paired seat waiting for its partner (null: not waiting, or not for long). */
  partnerWait: PartnerWait | null;
  /** A paired seat the room switched to train both members itself after its partner left. */
  partnerLeft: boolean;
  /** The presenter's projector view of the room (src/app/room/ProjectorView.tsx) is on. */
  projector: boolean;
}

export function initialRoomState(): RoomState {
  return {
    panelOpen: false,
    role: null,
    serverUrl: '',
    pairing: false,
    status: null,
    error: null,
    streaming: true,
    notice: null,
    info: null,
    link: null,
    linkWarning: null,
    askServer: null,
    seat: null,
    stream: { acked: 0, held: 0 },
    started: false,
    results: [],
    partnerWait: null,
    partnerLeft: false,
    projector: false,
  };
}

export interface RoomSlice {
  room: RoomState;
  setRoom(patch: Partial<RoomState>): void;
  resetRoom(keep?: Partial<RoomState>): void;
}

export const createRoomSlice: LabSlice<RoomSlice> = (set) => ({
  room: initialRoomState(),
  setRoom: (patch) => set((s) => ({ room: { ...s.room, ...patch } })),
  resetRoom: (keep = {}) => set({ room: { ...initialRoomState(), ...keep } }),
});

/** Whether the page is in a room that has not closed (its experiment is the room's). */
export function inRoom(s: Pick<LabState, 'room'>): boolean {
  return s.room.role !== null && s.room.info !== null && s.room.info.status !== 'closed' && s.room.status !== 'closed';
}

/** Why the experiment cannot be edited now (null: it can). */
export function roomLockReason(s: Pick<LabState, 'room'>): string | null {
  if (!inRoom(s)) return null;
  return s.room.role === 'student'
    ? "The class room sets this experiment: every browser in it trains the same one, with its seat's seed."
    : 'The class room is running this experiment: close the room to edit it.';
}

/** Why a student's Start waits (null: it does not). */
export function roomStartReason(s: Pick<LabState, 'room'>): string | null {
  if (s.room.role !== 'student' || !inRoom(s)) return null;
  if (!s.room.seat) return 'Joining the class room…';
  if (s.room.info?.status === 'open') return "Waiting for the presenter's Start: the whole class starts together.";
  return null;
}

/** The runs drawn as bands and counted by the claims: a class room's browsers, or "Run N seeds". */
export const bandResults = (s: Pick<LabState, 'room' | 'seeds'>): SeedResult[] => (s.room.results.length ? s.room.results : s.seeds.results);
/** What one of those runs is called: in a paired room a run is a pair's (two browsers, one peer arm). */
export const bandUnit = (s: Pick<LabState, 'room'>): SeedUnit => (s.room.results.length ? (s.room.info?.pairing ? 'pair' : 'browser') : 'seed');
