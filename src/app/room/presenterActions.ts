/**
 * The presenter's buttons: create a room for the experiment on screen, start it for everybody,
 * lock it, remove a seat, end it now, close it, run it again with new seeds and export every
 * seat's run as one file. Each says in words why it could not (the room's `error`).
 */
import { getPreset } from '../../core/experiment/presets';
import { connectRoom } from '../../room/client';
import { validationOf } from '../controls/validation';
import { experimentTitle } from '../controls/presetTask';
import { downloadText } from '../lib/download';
import { classRecordsOf } from './classResults';
import { createSeeds, newRoomSeeds, runAgainSeeds } from '../../room/roomSeeds';
import { roomRunFile } from './roomExport';
import { follow } from './roomFeed';
import { checkServerUrl } from './roomLink';
import { findRoomServer } from './roomPage';
import { UNREACHABLE, disconnect, session, setRoom, state } from './roomSession';
import { seatPresetFor } from './seatPreset';

/** A message to the room sent, or the words why not. */
function sent(ok: boolean | undefined): boolean {
  if (!ok) setRoom({ error: UNREACHABLE });
  return ok ?? false;
}

export const presenterActions = {
  /** Open the panel; the first time, find the room server (same origin if it answers there). */
  async open(): Promise<void> {
    setRoom({ panelOpen: true });
    await findRoomServer();
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
    disconnect();
    // H3: a seed is no edit (seatPreset.ts), and the room's name is the preset's title, not its id.
    const match = seatPresetFor(v.spec, s.presetId, s.presetId);
    const preset = !match.edited && getPreset(match.presetId) ? match.presetId : null;
    // Seeds with shipped warm starts where the preset lists them (src/room/roomSeeds.ts).
    const seeds = newRoomSeeds(preset, v.spec.seed);
    const name = `${preset ? getPreset(preset)!.title : experimentTitle(v.spec, s.presetId, true)}, seed ${seeds.specSeed}`;
    const client = connectRoom(server.value, { kind: 'presenter', create: { name, preset, spec: { ...v.spec, seed: seeds.specSeed }, ...createSeeds(seeds), pairing: s.room.pairing } });
    session.client = client;
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl: s.room.serverUrl, pairing: s.room.pairing, status: client.status });
    follow(client);
    return true;
  },

  startForEverybody(): boolean {
    return sent(session.client?.start());
  },

  closeRoom(): boolean {
    return sent(session.client?.closeRoom());
  },

  /**
   * End the class's run now (one missing partner or a slow browser no longer holds everybody): the
   * room closes, and the class's numbers are over the runs that had finished (classResults.ts).
   */
  endNow(): boolean {
    return presenterActions.closeRoom();
  },

  /**
   * Run the same experiment again with new seeds: this room closes and a new one opens with the
   * room seed list's next unused seeds and a base seed after every seed this room handed out
   * (runAgainSeeds), so no seat's saved run of the last round is taken for this one; students join
   * it through its new link and code.
   */
  runAgain(): boolean {
    const s = state();
    const info = s.room.info;
    if (s.room.role !== 'presenter' || !info || (s.room.status !== 'online' && info.status !== 'closed')) {
      setRoom({ error: UNREACHABLE });
      return false;
    }
    const seeds = runAgainSeeds(info);
    if (info.status !== 'closed') session.client?.closeRoom();
    const { serverUrl, projector } = s.room;
    disconnect();
    const name = `${info.name.replace(/, seed \d+$/, '')}, seed ${seeds.specSeed}`;
    const client = connectRoom(serverUrl, { kind: 'presenter', create: { name, preset: info.preset, spec: { ...info.spec, seed: seeds.specSeed }, ...createSeeds(seeds), pairing: info.pairing } });
    session.client = client;
    state().resetRoom({ panelOpen: true, role: 'presenter', serverUrl, pairing: info.pairing, status: client.status, projector });
    follow(client);
    return true;
  },

  // ---- H2: the teacher's controls

  /** Lock the room to new students, or open it again. */
  setLocked(locked: boolean): boolean {
    return sent(session.client?.lock(locked));
  },

  /** Remove a seat (the seats table asks first); its student is told, the seat is freed. */
  removeSeat(seat: number): boolean {
    return sent(session.client?.removeSeat(seat));
  },

  /** Every run of the class with an RL step (seats, or pairs) as one run file (roomExport.ts); false when there is none. */
  exportRoom(): boolean {
    const info = state().room.info;
    const file = info ? roomRunFile(info, classRecordsOf(info)) : null;
    if (!file || !file.ok) {
      setRoom({ error: file?.problem ?? 'No browser has trained an RL step yet: nothing to export.' });
      return false;
    }
    downloadText(file.name, file.text, 'application/json');
    return true;
  },
};
