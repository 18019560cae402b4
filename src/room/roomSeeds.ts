/**
 * Which seeds a room the presenter makes hands its seats (docs/ROOM.md, "Seats and seeds"): a
 * preset with a room seed list (src/core/experiment/roomSeeds.ts), kept at its own seed, takes
 * the list, whose warm starts ship with the lab, so no seat trains its warm start first; "Run
 * again with new seeds" takes the list's next unused seeds. Past the list's end, and for an
 * experiment without a list (edited, custom, another seed chosen), seats get baseSeed + index and
 * warm-start in the browser first: `seedsNote` says so on the presenter's page. Shared by the
 * page (roomController, RoomPanel) and the tests of the server that hands the seeds out.
 */
import { getPreset } from '../core/experiment/presets';
import { roomSeedList, roomSeedOffset } from '../core/experiment/roomSeeds';
import type { RoomInfo } from './protocol';

export interface RoomSeeds {
  /** The seed the room's experiment shows and its name says (the first seat's). */
  specSeed: number;
  baseSeed: number;
  /** Where the seats start in the preset's list; absent: baseSeed + index for every seat. */
  seedOffset?: number;
}

/** The base seed of a room run again: after every seed this room handed out, so no seat's earlier run is resumed. */
export function runAgainSeed(info: Pick<RoomInfo, 'baseSeed' | 'seats'>): number {
  return info.seats.reduce((m, x) => Math.max(m, x.seed), info.baseSeed - 1) + 1;
}

/**
 * Past every seed of `list` and at or after `from`: seats after the list's end never take a seed
 * the list holds (a later round would train it again).
 */
function baseAfter(list: readonly number[], from: number): number {
  return Math.max(from, Math.max(...list) + 1);
}

/** A new room's seeds for `preset`'s experiment at `seed` (null preset: an edited experiment), paired or not (the list is the same). */
export function newRoomSeeds(preset: string | null, seed: number): RoomSeeds {
  const list = roomSeedList(preset);
  // Another seed than the preset's own was chosen on purpose: the room starts there, as before.
  if (list.length === 0 || getPreset(preset!)?.spec.seed !== seed) return { specSeed: seed, baseSeed: seed };
  return { specSeed: list[0], baseSeed: baseAfter(list, seed), seedOffset: 0 };
}

/** What the `create` message carries of `seeds`. */
export function createSeeds(seeds: RoomSeeds): { baseSeed: number; seedOffset?: number } {
  return seeds.seedOffset === undefined ? { baseSeed: seeds.baseSeed } : { baseSeed: seeds.baseSeed, seedOffset: seeds.seedOffset };
}

/** The seed slot of seat `index`: the seat, or in a paired room its pair. */
const slotOf = (info: Pick<RoomInfo, 'pairing'>, index: number) => (info.pairing ? index >> 1 : index);

/**
 * "Run again with new seeds": the list's seeds after those this room handed out (every slot up
 * to the highest taken), and a base seed after every seed this room handed out (runAgainSeed), so
 * no seat's saved run of the last round is taken for this one.
 */
export function runAgainSeeds(info: Pick<RoomInfo, 'preset' | 'pairing' | 'baseSeed' | 'seats' | 'seeds' | 'seedOffset'>): RoomSeeds {
  const handedOut = runAgainSeed(info);
  if (info.seeds === undefined) return { specSeed: handedOut, baseSeed: handedOut };
  const used = info.seats.reduce((m, s) => Math.max(m, slotOf(info, s.index) + 1), 0);
  const seedOffset = roomSeedOffset(info.preset, (info.seedOffset ?? 0) + Math.min(used, info.seeds.length));
  const list = roomSeedList(info.preset);
  const rest = list.slice(seedOffset);
  const baseSeed = list.length > 0 ? baseAfter(list, handedOut) : handedOut;
  return { specSeed: rest[0] ?? baseSeed, baseSeed, seedOffset };
}

/**
 * The presenter's line about the seats' warm starts: null for a room without a list. Which seats'
 * seeds are listed (shipped warm starts: RL starts at once) and from which seat on they are not
 * (the list ran out: those seats warm-start in the browser first).
 */
export function seedsNote(info: Pick<RoomInfo, 'preset' | 'pairing' | 'seats' | 'seeds'>): { text: string; warmStartFirst: number[] } | null {
  if (info.seeds === undefined || roomSeedList(info.preset).length === 0) return null;
  const listed = info.seeds.length;
  const unit = info.pairing ? 'pair' : 'seat';
  const warmStartFirst = info.seats.filter((s) => slotOf(info, s.index) >= listed).map((s) => s.index);
  const first = info.pairing ? listed * 2 : listed;
  if (listed === 0) {
    return {
      text: 'This round is past the seeds whose warm starts ship with the lab: every seat warm-starts its models in the browser before its first RL step.',
      warmStartFirst,
    };
  }
  const head = `The first ${listed} ${unit}s get seeds ${info.seeds[0]} to ${info.seeds[listed - 1]}, whose warm starts ship with the lab: they start RL at once.`;
  const tail =
    warmStartFirst.length > 0
      ? ` Seats from ${first} on are past them: they warm-start their models in the browser before their first RL step.`
      : '';
  return { text: head + tail, warmStartFirst };
}
