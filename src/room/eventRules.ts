/**
 * What a seat's run of the room's experiment can send, checked against the experiment itself
 * before the server stores or forwards an event. The schema (protocol.ts) bounds an event's shape;
 * these rules bound its science: a run makes a base evaluation, then RL steps 1, 2, ... once each
 * and in order, then a 'done' (or a 'nonfinite' in place of a step's event). Its arms and members
 * are the experiment's, its rates lie in [0, 1], its counts and times are ones a browser can make,
 * its summary carries the seat's own seed, and its text is plain. A student can still send
 * plausible invented numbers inside these bounds (docs/ROOM.md, "What a seated student can do").
 */
import { type ExperimentSpec, voteCount } from '../core/experiment/spec';
import type { SeatEvent } from './protocol';

/** Where the seat's stored run stands (the server's SeatRecord has these). */
export interface SeatProgress {
  /** Events stored so far; the next event's number. */
  events: number;
  /** The last RL step stored (0: none yet). */
  lastStep: number;
  /** The seat's assigned seed. */
  seed: number;
}

/** Metrics that are fractions of prompts, rollouts or items, or accuracies: always in [0, 1]. */
const RATES = [
  'oracleReward', 'pseudoLabelAccuracy', 'rewardAccuracy', 'ownVoteAccuracy', 'rescueRate', 'misleadRate', 'sharedErrorRate',
  'labeledFraction', 'majorityRatio', 'tieRate', 'capFraction', 'malformedFraction', 'zeroStdFraction', 'supervisionContainsTruth',
  'topAnswerShare', 'clipFraction', 'evalPassAt1', 'evalMajAtG', 'passAt1', 'majAtG',
] as const;

/** No number a run of this lab makes comes near this (losses, gradient norms and KL included). */
const MAGNITUDE = 1e9;
/** An RL step of a browser takes less than this (an hour). */
const MAX_STEP_MS = 3_600_000;
/** Characters of a text field (a backend's name, a member's label). */
const MAX_TEXT = 80;
/** Control, format (bidirectional marks included), line and paragraph separators. */
const NOT_PLAIN = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/** Why `event`, sent as the seat's event number `seq`, cannot be part of a run of `spec` (null: it can). */
export function eventProblem(spec: ExperimentSpec, seat: SeatProgress, seq: number, event: SeatEvent): string | null {
  const text = textProblem(event);
  if (text) return text;
  const number = numberProblem(event);
  if (number) return number;
  if (seq === 0) return event.type === 'base' ? baseProblem(spec, event) : `A run starts with its base evaluation; event 0 is a '${event.type}'.`;
  switch (event.type) {
    case 'base':
      return `A run has one base evaluation, its event 0; this is event ${seq}.`;
    case 'step':
    case 'nonfinite': {
      if (event.step !== seat.lastStep + 1) return `RL steps come once each and in order: after step ${seat.lastStep} the next is ${seat.lastStep + 1}, not ${event.step}.`;
      if (event.type === 'nonfinite') return memberProblem(spec, event.armId, [event.memberId]);
      if (event.steps !== spec.steps) return `This room's experiment has ${spec.steps} RL steps; this step says ${event.steps}.`;
      if (event.stepMs < 0 || event.stepMs > MAX_STEP_MS) return `A step's time must lie between 0 and ${MAX_STEP_MS} ms; this one says ${event.stepMs}.`;
      for (const arm of event.arms) {
        const bad = memberProblem(spec, arm.armId, Object.keys(arm.members)) ?? schemeProblem(spec, arm.armId, arm.scheme);
        if (bad) return bad;
        for (const p of arm.pairs) {
          const pair = memberProblem(spec, arm.armId, [p.a, p.b]);
          if (pair) return pair;
        }
      }
      return null;
    }
    case 'done': {
      if (seat.lastStep < 1) return "A run's 'done' comes after at least one RL step; none is stored for this seat.";
      const s = event.summary;
      if (s.seed !== seat.seed) return `This seat's seed is ${seat.seed}; the summary says ${s.seed}.`;
      for (const arm of s.arms) {
        const bad = memberProblem(spec, arm.id, arm.members.map((m) => m.id)) ?? schemeProblem(spec, arm.id, arm.scheme);
        if (bad) return bad;
      }
      return null;
    }
  }
}

/**
 * Why a paired seat's answers of `kind` at `step` cannot be ones its partner's page reads (null:
 * they can). A step's training answers are the batch's prompts, each with the n_vote answers that
 * vote; held-out answers are the evaluation set's problems, each with G answers, at the base
 * (step 0), every evalEvery steps and the last step. The partner's page would refuse any other
 * shape and stop its run, so the server refuses it first.
 */
export function answersProblem(spec: ExperimentSpec, step: number, kind: 'train' | 'eval', answers: readonly (readonly (string | null)[])[]): string | null {
  const [prompts, each] = kind === 'train' ? [spec.grpo.promptsPerStep, voteCount(spec.grpo)] : [spec.data.heldOut, spec.grpo.groupSize];
  if (kind === 'train' && (step < 1 || step > spec.steps)) return `Training answers come at RL steps 1 to ${spec.steps}; these say step ${step}.`;
  if (kind === 'eval' && !(step === 0 || step === spec.steps || (step > 0 && step < spec.steps && step % spec.evalEvery === 0))) {
    return `Held-out answers come at the base (step 0), every ${spec.evalEvery} steps and step ${spec.steps}; these say step ${step}.`;
  }
  if (answers.length !== prompts) return `${kind === 'train' ? 'Training' : 'Held-out'} answers cover ${prompts} prompts; these cover ${answers.length}.`;
  const k = answers.findIndex((a) => a.length !== each);
  if (k >= 0) return `Each prompt has ${each} answers; prompt ${k} has ${answers[k].length}.`;
  for (const a of answers) for (const x of a) if (x !== null && NOT_PLAIN.test(x)) return 'An answer holds a control or bidirectional character.';
  return null;
}

function baseProblem(spec: ExperimentSpec, event: Extract<SeatEvent, { type: 'base' }>): string | null {
  const ids = new Set(spec.members.map((m) => m.id));
  for (const id of [...event.members.map((m) => m.id), ...event.base.map((b) => b.memberId)]) {
    if (!ids.has(id)) return `This room's experiment has no member "${id}" (its members: ${[...ids].join(', ')}).`;
  }
  return null;
}

/** Null when `armId` is one of the spec's arms and every id one of that arm's members, each once. */
function memberProblem(spec: ExperimentSpec, armId: string, memberIds: readonly string[]): string | null {
  const arm = spec.arms.find((a) => a.id === armId);
  if (!arm) return `This room's experiment has no arm "${armId}" (its arms: ${spec.arms.map((a) => a.id).join(', ')}).`;
  const seen = new Set<string>();
  for (const id of memberIds) {
    if (!arm.members.includes(id)) return `Arm "${armId}" of this room's experiment has no member "${id}" (its members: ${arm.members.join(', ')}).`;
    if (seen.has(id)) return `Member "${id}" appears twice in arm "${armId}".`;
    seen.add(id);
  }
  return null;
}

function schemeProblem(spec: ExperimentSpec, armId: string, scheme: string): string | null {
  const arm = spec.arms.find((a) => a.id === armId);
  return arm && arm.scheme !== scheme ? `Arm "${armId}" of this room's experiment is rewarded by '${arm.scheme}', not '${scheme}'.` : null;
}

/** Every string of the event short and plain (no control or bidirectional characters). */
function textProblem(event: SeatEvent): string | null {
  let problem: string | null = null;
  walk(event, (v, key) => {
    if (problem || typeof v !== 'string') return;
    if (v.length > MAX_TEXT && key !== 'explanation') problem = `A text field ("${key}") holds at most ${MAX_TEXT} characters; this one has ${v.length}.`;
    else if (NOT_PLAIN.test(v)) problem = `A text field ("${key}") holds a control or bidirectional character.`;
  });
  return problem;
}

/** Every number finite and of a size a run makes; every rate in [0, 1]. */
function numberProblem(event: SeatEvent): string | null {
  let problem: string | null = null;
  walk(event, (v, key) => {
    if (problem || typeof v !== 'number') return;
    if (!Number.isFinite(v) || Math.abs(v) > MAGNITUDE) problem = `"${key}" is ${v}: no run of this lab makes a number of that size.`;
    else if ((RATES as readonly string[]).includes(key) && (v < 0 || v > 1)) problem = `"${key}" is a rate and lies in [0, 1]; this one is ${v}.`;
  });
  return problem;
}

/** Visit every value of a parsed event with the key it stands under (bounded: the schema bounded its size). */
function walk(value: unknown, visit: (v: unknown, key: string) => void, key = ''): void {
  visit(value, key);
  if (Array.isArray(value)) for (const v of value) walk(v, visit, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, visit, k);
}

/** What a seat of a room of levels trains (server/roomState.ts): its level's arm and the members its events may name. */
export interface SeatLevel {
  arm: string;
  /** The seat's own member (a member part), or both of the arm's (a seat that trains alone). */
  members: readonly string[];
}

/**
 * Why `event` is not one of a paired seat's own run (null: it is). A paired room hands each pair a
 * partner level, one peer arm (src/room/levels.ts): a seat's base and steps name that arm alone,
 * and its own member alone (or, training alone, the arm's two). Another level's arm or member is
 * refused even though the room's experiment has it: the class would count it for the wrong level.
 */
export function seatLevelProblem(level: SeatLevel, event: SeatEvent): string | null {
  const arms: string[] = [];
  const members: string[] = [];
  switch (event.type) {
    case 'base':
      members.push(...event.members.map((m) => m.id), ...event.base.map((b) => b.memberId));
      break;
    case 'step':
      for (const a of event.arms) {
        arms.push(a.armId);
        members.push(...Object.keys(a.members));
      }
      break;
    case 'nonfinite':
      arms.push(event.armId);
      members.push(event.memberId);
      break;
    case 'done':
      // A member part's summary has the runner's whole experiment (its other arms empty), and a
      // streamed 'done' carries no histories: the pages refold a pair's end from its steps. So a
      // 'done' is checked against the room's experiment (eventProblem), not the level.
      return null;
  }
  const arm = arms.find((a) => a !== level.arm);
  if (arm !== undefined) return `This seat's level is the partner level "${level.arm}" alone; this event names arm "${arm}".`;
  const member = members.find((m) => !level.members.includes(m));
  // A seat that trains alone starts from a base of both members: a member part's base (one it
  // streamed before its partner's seat was freed, still in flight) is not its run's.
  const missing = event.type === 'base' && level.members.length > 1 ? level.members.find((m) => !members.includes(m)) : undefined;
  if (member === undefined && missing !== undefined) return `This seat trains both members of arm "${level.arm}" itself; this base lacks member "${missing}" (it is one member's).`;
  if (member === undefined) return null;
  const own = level.members.length === 1 ? `member "${level.members[0]}"` : `members ${level.members.map((m) => `"${m}"`).join(' and ')}`;
  return `This seat trains ${own} of arm "${level.arm}" alone; this event names member "${member}".`;
}
