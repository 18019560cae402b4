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
   * Paired rooms only, each pair's own members shipped (not every member): the list's seed at
   * position p serves the pair that trains partner level p mod `levels` (src/room/levels.ts), so
   * a room starts the list at a multiple of `levels` (roomSeedOffset). Absent: every member of
   * every seed ships, for paired and unpaired rooms alike.
   */
  pairLevels?: number;
}

export const ROOM_SEEDS: Readonly<Record<string, RoomSeedList>> = {
  // The default class preset: 30 seeds, one per seat of a 30-seat class (unpaired: each seat
  // trains both members; paired: 15 pairs use the first 15, and running again uses the rest).
  'peers-learn': { seeds: seedRange(109, 138), note: 'its confirmation seeds 109-116, then 117-138' },
  // Paired rooms only: pair k trains A with partner level k mod 6 (src/room/levels.ts), so the
  // seed at position p ships A's and level p mod 6's partner's warm starts (T's are A's): 15
  // seeds, one per pair of a 30-seat class. An unpaired overlap seat trains all seven members;
  // every member of 30 seeds would be most of a 37 MB folder, so unpaired seats warm-start.
  overlap: { seeds: seedRange(201, 215), note: 'its confirmation seeds 201-212, then 213-215: one per pair of a 30-seat paired class', pairLevels: 6 },
};

/** The list of `preset` for a room (paired or not), or an empty one (a custom experiment, a preset without one, an unpaired room of a paired-only list). */
export function roomSeedList(preset: string | null | undefined, pairing: boolean): readonly number[] {
  if (!preset || !Object.prototype.hasOwnProperty.call(ROOM_SEEDS, preset)) return [];
  const list = ROOM_SEEDS[preset];
  return list.pairLevels !== undefined && !pairing ? [] : list.seeds;
}

/**
 * Where a room starts `preset`'s list when the seeds before `used` are taken: at `used`, or for
 * a list shipped per partner level at the next multiple of its level count, so that pair k of
 * the room, which trains level k mod L, takes a seed shipped for that level.
 */
export function roomSeedOffset(preset: string | null | undefined, used: number): number {
  const levels = preset && Object.prototype.hasOwnProperty.call(ROOM_SEEDS, preset) ? ROOM_SEEDS[preset].pairLevels : undefined;
  return levels ? Math.ceil(used / levels) * levels : used;
}
