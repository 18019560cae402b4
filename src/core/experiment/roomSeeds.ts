/**
 * The seeds a room hands its seats, per preset: seeds whose warm starts ship with the site
 * (public/warmstarts/room/, made by `npm run warmstarts -- --room` from this list and checked by
 * `--check`), so that every seat of a 30-seat class loads its members' weights instead of
 * training them first (docs/WARMSTARTS.md, "Room seeds"; docs/ROOM.md, "Seats and seeds").
 *
 * Each list starts with the preset's confirmation seeds (docs/RESULTS.md): a class's first round
 * reruns the seeds the preset's claims were confirmed on. A room takes the list from an offset
 * (0 for a new room; "Run again with new seeds" moves past the seeds the last round used), one
 * seed per seat, or per pair in a paired room; seats past the list's end get baseSeed + index as
 * rooms always did, and those warm-start in the browser first.
 */

/** Seeds from..to, both included. */
function seedRange(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

export interface RoomSeedList {
  /** The seeds, in the order seats take them. */
  seeds: readonly number[];
  /** Why these: which of them are the confirmation block, and what a class of 30 needs. */
  note: string;
  /**
   * A list shipped per partner level: the list's seed at position p serves the slot (a pair, or a
   * seat of an unpaired room) that trains partner level p mod `levels` (src/room/levels.ts), and
   * ships that level's two members only, so a room starts the list at a multiple of `levels`
   * (roomSeedOffset). Absent: every member of every seed ships.
   */
  levels?: number;
}

export const ROOM_SEEDS: Readonly<Record<string, RoomSeedList>> = {
  // The default class preset: 30 seeds, one per seat of a 30-seat class (unpaired: each seat
  // trains both members; paired: 15 pairs use the first 15, and running again uses the rest).
  'peers-learn': { seeds: seedRange(109, 138), note: 'its confirmation seeds 109-116, then 117-138' },
  // Slot k (pair k of a paired room, seat k of an unpaired one) trains A with partner level k mod 6
  // (src/room/levels.ts), so the seed at position p ships A's and level p mod 6's partner's warm
  // starts (T's are A's): 30 seeds, one per seat of a 30-seat class (a paired class uses 15 a round).
  overlap: { seeds: seedRange(201, 230), note: 'its confirmation seeds 201-212, then 213-230: one per seat of a 30-seat class', levels: 6 },
};

/** The list of `preset` for a room, paired or not, or an empty one (a custom experiment, a preset without one). */
export function roomSeedList(preset: string | null | undefined): readonly number[] {
  return preset && Object.prototype.hasOwnProperty.call(ROOM_SEEDS, preset) ? ROOM_SEEDS[preset].seeds : [];
}

/**
 * Where a room starts `preset`'s list when the seeds before `used` are taken: at `used`, or for
 * a list shipped per partner level at the next multiple of its level count, so that pair k of
 * the room, which trains level k mod L, takes a seed shipped for that level.
 */
export function roomSeedOffset(preset: string | null | undefined, used: number): number {
  const levels = preset && Object.prototype.hasOwnProperty.call(ROOM_SEEDS, preset) ? ROOM_SEEDS[preset].levels : undefined;
  return levels ? Math.ceil(used / levels) * levels : used;
}
