/**
 * A student's seat: the page shows the room's experiment with the seat's seed, and the seat's run
 * starts when the room does (or at once if it already runs; a saved run of the seat is resumed, a
 * finished one shown and sent again). In a paired room the seat trains its member of its pair's
 * level (a peer arm, src/room/levels.ts) and its exchanges go through the room (pairing.ts); a seat
 * the room marks `alone` (no partner when the room started) trains both members of its level
 * itself, the pair's one-browser run (pairSpec); a seat with no one beside it yet waits (the room
 * marks it alone if no partner comes: docs/ROOM.md, "The odd student out trains alone"), and a
 * seat whose partner left is switched to that run, from the start, if nobody takes their seat.
 * In an unpaired room of several levels (the overlap preset) every seat trains its level alone.
 */
import { pairSpec } from '../../core/experiment/memberParts';
import { isActivePhase } from '../../engine/protocol';
import type { RoomInfo, SeatInfo } from '../../room/protocol';
import { lastRunOf } from '../runs/lastRun';
import { savedRuns, useSavedRuns } from '../runs/runsController';
import { inRoom } from '../store/roomSlice';
import { lab } from '../trainingWorker';
import { memberPartOf, relayExchanges, startPairedSeat } from './pairing';
import { seatPresetFor } from './seatPreset';
import { session, setRoom, state, stream } from './roomSession';

/** The seat's experiment: the room's, with the seat's seed; a seat that trains alone: its level's pair. */
function seatSpec(info: RoomInfo, seat: SeatInfo | null) {
  const spec = seat?.alone && seat.level ? pairSpec(info.spec, seat.level) : info.spec;
  return { ...spec, seed: seat?.seed ?? info.baseSeed };
}

/** The page shows the room's experiment with this seat's seed (the presenter's: the base seed, seat null). */
export function showRoomExperiment(info: RoomInfo, seat: SeatInfo | null): void {
  const spec = seatSpec(info, seat);
  const { presetId, edited } = seatPresetFor(spec, info.preset, state().presetId);
  state().loadSpec(presetId, spec, edited);
}

export function seatChanged(seat: SeatInfo): void {
  const info = state().room.info;
  if (info) showRoomExperiment(info, seat);
  void maybeStartSeat();
}

/**
 * The room switched this paired seat to train alone (its partner's seat was freed after the start
 * and nobody took it within the partner wait) and holds nothing of its member part any more. The
 * member part stops here: the relay is stopped (no answer of it is sent again), the stream follows
 * no run (none of its events goes out) and the worker's run is stopped, its tensors disposed; then
 * the seat's run starts again from its base, the level's pair with the same seed (maybeStartSeat).
 */
export function trainAloneNow(seat: SeatInfo): void {
  // A seat that had not started (a late joiner waiting for a partner) has nothing to stop.
  const began = state().room.started;
  session.relay?.stop();
  session.relay = null;
  stream.follow(0);
  if (began) lab.reset();
  setRoom({ seat, started: false, partnerWait: null, partnerLeft: began });
  const info = state().room.info;
  if (info) showRoomExperiment(info, seat);
  void maybeStartSeat();
}

/** A student whose seat is open in another tab: take it in this one ("Use this tab here"). */
export function useThisTab(): boolean {
  return session.client?.takeOver() ?? false;
}

let starting = false;

/** Start (or resume) the seat's run once the room runs; never before the presenter's start. */
export async function maybeStartSeat(): Promise<void> {
  const s = state();
  const { info, seat, started, role } = s.room;
  if (role !== 'student' || started || starting || !info || !seat || !inRoom(s)) return;
  if (info.status !== 'running') return;
  if (!useSavedRuns.getState().loaded) return;
  if (isActivePhase(s.run.phase)) return;
  starting = true;
  try {
    const spec = seatSpec(info, seat);
    // A paired room: this seat trains one member of its level's peer arm, its partner the other;
    // alone (an odd seat, or any seat of an unpaired room of levels), both: spec is the pair's run.
    const alone = seat.alone === true;
    const memberPart = info.pairing && !alone ? memberPartOf(info.spec, seat) : null;
    if (info.pairing && !alone && !memberPart) {
      setRoom({ error: "This seat has no member of the room's peer arm to train: leave the room and join again." });
      return;
    }
    const saved = lastRunOf(useSavedRuns.getState().metas, spec, memberPart);
    // No one beside this seat yet (it joined after the start): it waits for a partner, and the
    // room has it train alone if none comes. A saved run of it goes on (its partner's answers are kept).
    if (memberPart && seat.partner === null && !saved) return;
    // The relay is in place before the run starts: its first exchange (the base's evaluation) comes soon.
    const client = session.client;
    if (memberPart && client && !session.relay && saved?.status !== 'done') {
      session.relay = relayExchanges(lab, client, { partner: partnerOfSeat, onWait: (partnerWait) => setRoom({ partnerWait }) });
    }
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

/**
 * A seat that trains one member of a pair waits for its partner's answers through the room, so its
 * run stops where they can no longer come: the room closed or the seat removed. It stays on screen
 * as stopped, and the status line says why (RoomStatusLine.tsx); any other seat's run goes on here.
 */
export function endMemberPart(): void {
  const s = state();
  const { info, seat, role, started, status } = s.room;
  if (role !== 'student' || !info || !seat || seat.member === null || seat.alone || seat.done || !started) return;
  if (status !== 'closed' && info.status !== 'closed') return;
  session.relay?.stop();
  session.relay = null;
  stream.follow(0);
  if (s.run.runId > 0 && isActivePhase(s.run.phase)) lab.stop();
}

/** The partner's seat and whether it is connected now (a paired seat's wait says it). */
function partnerOfSeat(): { seat: number | null; connected: boolean } {
  const { info, seat } = state().room;
  const partner = seat?.partner ?? null;
  return { seat: partner, connected: partner !== null && (info?.seats.find((x) => x.index === partner)?.connected ?? false) };
}
