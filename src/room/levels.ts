/**
 * A paired room's partner levels (docs/ROOM.md, "Levels"). An experiment with several peer arms
 * of two members that share one anchor (the `overlap` preset: A next to S, B0, B50, B80, T and X)
 * asks how A's gain changes with its partner; a paired room spreads those arms over its pairs, so
 * that the class measures several partners at once. Pair k trains level k mod L, in an order
 * that spreads them: the same-family levels (the anchor's shape, in the spec's order, which is
 * the dial's: least overlapping by design first) ends first, then the middle of each gap in turn,
 * then the partners of another shape. Two pairs already give the two ends (S and T), three add
 * the middle (B50). An experiment with one such arm (peers-learn) has one level: every pair
 * trains it, as before levels existed.
 *
 * An unpaired room of such an experiment spreads the same levels over its seats, each seat one
 * level's pair alone (roomLevelList), so a class asks the question without pairing up.
 *
 * Plain data: the server assigns levels with it (roomState.ts) and the page reads them back.
 */
import { pairSpec } from '../core/experiment/memberParts';
import type { ArmSpec, ExperimentSpec, MemberSpec } from '../core/experiment/spec';

const shape = (m: MemberSpec) => `${m.family}/${m.dModel}/${m.layers}/${m.window}`;

/** The peer arms of two members, the first of which pairs are built on (the legacy level of rooms stored before levels). */
export function firstPeerArm(spec: ExperimentSpec): ArmSpec | null {
  return spec.arms.find((a) => a.scheme === 'peer' && a.members.length === 2) ?? null;
}

/**
 * The order in which `n` levels in a row are handed out: the ends first, then, breadth first, the
 * middle of each gap between levels already handed out (5: 0, 4, 2, 1, 3).
 */
export function spreadOrder(n: number): number[] {
  if (n <= 0) return [];
  if (n === 1) return [0];
  const out = [0, n - 1];
  const gaps: [number, number][] = [[0, n - 1]];
  while (gaps.length > 0) {
    const [a, b] = gaps.shift()!;
    if (b - a < 2) continue;
    const m = Math.floor((a + b) / 2);
    out.push(m);
    gaps.push([a, m], [m, b]);
  }
  return out;
}

/**
 * The arm ids a paired room hands out, in order (pair k: the (k mod L)-th). The anchor is the first
 * member of the first two-member peer arm; a level is a two-member peer arm whose first member is
 * the anchor. Empty: the spec has no two-member peer arm (a paired room is refused).
 */
export function peerLevels(spec: ExperimentSpec): string[] {
  const first = firstPeerArm(spec);
  if (!first) return [];
  const anchorId = first.members[0];
  const anchor = spec.members.find((m) => m.id === anchorId);
  const arms = spec.arms.filter((a) => a.scheme === 'peer' && a.members.length === 2 && a.members[0] === anchorId);
  const partner = (a: ArmSpec) => spec.members.find((m) => m.id === a.members[1]);
  const same = arms.filter((a) => anchor && partner(a) && shape(partner(a)!) === shape(anchor));
  const other = arms.filter((a) => !same.includes(a));
  return [...spreadOrder(same.length).map((i) => same[i].id), ...other.map((a) => a.id)];
}

/**
 * The levels a room hands out: a paired room's, one per pair; an unpaired room's when its
 * experiment has two levels or more (the overlap question), one per seat, each seat training its
 * level's pair alone. An unpaired room of one level or none (peers-learn) hands out none: each
 * seat trains the whole experiment, whose self and oracle arms are that lesson's question.
 */
export function roomLevelList(spec: ExperimentSpec, pairing: boolean): string[] {
  const levels = peerLevels(spec);
  return pairing || levels.length > 1 ? levels : [];
}

/**
 * What an unpaired seat's events are a run of: its level's pair (seatTrainSpec) where the room
 * gave it a level the experiment has, else the whole experiment. A level the experiment lacks
 * (a damaged or foreign room message) reads as no level, so the run is dropped, not the class.
 */
export function unpairedSeatSpec(spec: ExperimentSpec, seat: { level?: string | null }): ExperimentSpec {
  return seat.level && spec.arms.some((a) => a.id === seat.level) ? seatTrainSpec(spec, { level: seat.level, member: null }) : spec;
}

/** Whether a room's runs are each one level's pair (a paired room, or an unpaired one whose seats the room gave levels). */
export function runsByLevel(room: { pairing: boolean; seats: readonly { level?: string | null }[] }): boolean {
  return room.pairing || room.seats.some((s) => !!s.level);
}

/** Slot k's level among `levels` (a pair's, or an unpaired seat's; null: none). */
export function levelOfPair(levels: readonly string[], pair: number): string | null {
  return levels.length === 0 ? null : levels[pair % levels.length];
}

/** The arm and partner a level names, for words ("A with S"); null when the spec has no such arm. */
export function levelPair(spec: ExperimentSpec, level: string): { arm: ArmSpec; anchor: string; partner: string } | null {
  const arm = spec.arms.find((a) => a.id === level && a.scheme === 'peer' && a.members.length === 2);
  return arm ? { arm, anchor: arm.members[0], partner: arm.members[1] } : null;
}

/**
 * What a seat's events are a run of: the room's experiment (unpaired), its level's pair
 * (pairSpec: a seat that trains alone), or its own member of that pair (a member part). The load
 * check and the tests make their seats' runs from it.
 */
export function seatTrainSpec(spec: ExperimentSpec, seat: { level?: string | null; member: string | null; alone?: boolean }): ExperimentSpec {
  if (!seat.level) return spec;
  const pair = pairSpec(spec, seat.level);
  const member = seat.member;
  if (seat.alone || member === null) return pair;
  return { ...pair, members: pair.members.filter((m) => m.id === member), arms: [{ ...pair.arms[0], members: [member] }] };
}
