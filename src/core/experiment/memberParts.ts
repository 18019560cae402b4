/**
 * A peer arm across two browsers (class mode's paired rooms; docs/METHOD.md, "A peer arm across
 * two browsers"). Each browser trains one member of the arm, a member part (RunOptions.memberPart),
 * and every step the two exchange their answers through the room:
 *
 *   'train'  after sampling: the member's n_vote answers on each of the step's B prompts; the
 *            partner's come back, and from them this side recomputes the partner's plurality
 *            (its ballot stream is named by arm, member and step), which is the reward's label,
 *            and the pair's measures (agreement, kappa, both-wrong-same)
 *   'eval'   after an evaluation (step 0: the base): the G answers on each held-out problem; from
 *            the partner's come its pluralities (its evaluation stream is named by member), so the
 *            held-out pair measures and the pair pooled by maj@G
 *
 * Every random stream is named, never consumed across members, so the two parts' events merged
 * (mergeMemberBases, mergeMemberSteps) equal a one-browser run of pairSpec(spec, armId) bit for bit
 * on wasm (memberPart.test.ts). The partner's answers come from another browser: untrusted, their
 * shape is checked (checkedAnswers) before anything reads them.
 *
 * Plain data: no tensor (the presenter's page merges pairs with it). The step itself: memberStep.ts.
 */
import type { Answer } from '../rewards/vote';
import { blowUpExplanation } from './blowUp';
import type { CheckpointScope } from './checkpoint';
import type { ArmStepMetrics, PairMetrics, RolloutSample, RunnerEvent } from './events';
import type { ArmSpec, ExperimentSpec } from './spec';

export type ExchangeKind = 'train' | 'eval';

/**
 * Sends this member's answers of `step` (per prompt: its n_vote voted answers for 'train', its G
 * held-out answers for 'eval'; step 0 'eval' is the base evaluation) and resolves with its
 * partner's of the same step and kind. It may reject (a stop while waiting): the run then throws.
 */
export type AnswerExchange = (step: number, kind: ExchangeKind, answers: Answer[][]) => Promise<Answer[][]>;

/** Which member of which peer arm a member part trains (plain data: what a start message carries). */
export interface MemberSeat {
  armId: string;
  memberId: string;
}

/** One member of a two-member peer arm, trained here while its partner trains elsewhere. */
export interface MemberPart extends MemberSeat {
  exchange: AnswerExchange;
}

/** The arm class mode pairs students on: the spec's first peer arm with exactly two members. */
export function pairedPeerArm(spec: ExperimentSpec): ArmSpec | null {
  return spec.arms.find((a) => a.scheme === 'peer' && a.members.length === 2) ?? null;
}

/** What a member part trains, read from the spec (memberLayout checks it). */
export interface MemberLayout {
  arm: ArmSpec;
  /** This member's index in the arm (0 or 1), its id and its partner's. */
  index: number;
  memberId: string;
  partnerId: string;
  /** What the part builds: the arm with only this member's copy (its stacks and checkpoint). */
  trainSpec: ExperimentSpec;
  /** What its checkpoint holds: this member, and its copy in the arm. */
  scope: CheckpointScope;
}

/** A member part's layout and its exchange: what the runner follows. */
export interface MemberPlan extends MemberLayout {
  exchange: AnswerExchange;
}

/** Why `spec` has no member part `seat`, in words (null: it has). */
export function memberSeatProblem(spec: ExperimentSpec, seat: MemberSeat): string | null {
  const arm = spec.arms.find((a) => a.id === seat.armId);
  if (!arm) return `the experiment has no arm ${JSON.stringify(seat.armId)}`;
  if (arm.scheme !== 'peer' || arm.members.length !== 2) {
    return `arm ${arm.id} is a ${arm.scheme} arm of ${arm.members.length} members; only a peer arm of two members can be trained across two browsers`;
  }
  if (!arm.members.includes(seat.memberId)) return `member ${JSON.stringify(seat.memberId)} is not in arm ${arm.id} (its members: ${arm.members.join(', ')})`;
  return null;
}

/** The layout of member part `seat` of `spec`; an Error saying why when the spec has no such part. */
export function memberLayout(spec: ExperimentSpec, seat: MemberSeat): MemberLayout {
  const problem = memberSeatProblem(spec, seat);
  if (problem) throw new Error(`member part: ${problem}`);
  const arm = spec.arms.find((a) => a.id === seat.armId)!;
  const index = arm.members.indexOf(seat.memberId);
  const own = { ...arm, members: [seat.memberId] };
  return {
    arm,
    index,
    memberId: seat.memberId,
    partnerId: arm.members[1 - index],
    trainSpec: { ...spec, arms: [own] },
    scope: { members: [seat.memberId], arms: [own] },
  };
}

/** The plan of member part `part` of `spec` (memberLayout's Error when the spec has none). */
export function memberPlan(spec: ExperimentSpec, part: MemberPart): MemberPlan {
  return { ...memberLayout(spec, part), exchange: part.exchange };
}

/**
 * The one-browser run the two member parts of `armId` together are: `spec` with only that arm
 * and its two members (in the spec's order).
 */
export function pairSpec(spec: ExperimentSpec, armId: string): ExperimentSpec {
  const arm = spec.arms.find((a) => a.id === armId);
  if (!arm) throw new Error(`the experiment has no arm ${JSON.stringify(armId)}`);
  return { ...spec, members: spec.members.filter((m) => arm.members.includes(m.id)), arms: [arm] };
}

/** A member's answers of one step, flat (prompt by prompt), as answers per prompt. */
export function perPrompt(flat: readonly Answer[], perPromptCount: number): Answer[][] {
  return Array.from({ length: flat.length / perPromptCount }, (_, b) => flat.slice(b * perPromptCount, (b + 1) * perPromptCount));
}

const whatIs = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? `an array of ${x.length}` : typeof x);

/**
 * The partner's answers as sent (untrusted: another browser's), checked to be `prompts` arrays of
 * `perPromptCount` answers, each a string or null; else an Error naming what is wrong.
 */
export function checkedAnswers(reply: unknown, prompts: number, perPromptCount: number, what: string): Answer[][] {
  const bad = (why: string) => new Error(`${what} are malformed: ${why}`);
  if (!Array.isArray(reply)) throw bad(`expected ${prompts} prompts, got ${whatIs(reply)}`);
  if (reply.length !== prompts) throw bad(`expected ${prompts} prompts, got ${reply.length}`);
  reply.forEach((answers: unknown, b) => {
    if (!Array.isArray(answers) || answers.length !== perPromptCount) throw bad(`prompt ${b} has ${whatIs(answers)} answers, expected ${perPromptCount}`);
    const k = answers.findIndex((a) => a !== null && typeof a !== 'string');
    if (k >= 0) throw bad(`answer ${k} of prompt ${b} is ${whatIs(answers[k])}, expected a string or null`);
  });
  return reply as Answer[][];
}

// ---- merging a pair ---------------------------------------------------------------------------

type BaseEvent = Extract<RunnerEvent, { type: 'base' }>;
type StepEvent = Extract<RunnerEvent, { type: 'step' }>;
type NonFiniteEvent = Extract<RunnerEvent, { type: 'nonfinite' }>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The pair's two parts' events, in the arm's member order (each part holds its own member). */
function inArmOrder<T>(arm: ArmSpec, parts: T[], memberOf: (e: T) => string | undefined, what: string): T[] {
  if (parts.length !== 2) throw new Error(`a pair has two member parts, got ${parts.length} ${what}`);
  const ordered = arm.members.map((id) => parts.find((e) => memberOf(e) === id));
  const missing = arm.members.find((_, i) => !ordered[i]);
  if (missing !== undefined) throw new Error(`no ${what} of member ${missing} of arm ${arm.id}`);
  return ordered as T[];
}

/**
 * The two member parts' 'base' events (any order) as the base a one-browser run of
 * pairSpec(spec, armId) yields: both members, in the spec's order, and the pair's base measures
 * (which both parts computed from the same answers: they must agree).
 */
export function mergeMemberBases(spec: ExperimentSpec, armId: string, bases: BaseEvent[]): BaseEvent {
  const s = pairSpec(spec, armId);
  const order = s.members.map((m) => m.id);
  const [a, b] = inArmOrder(s.arms[0], bases, (e) => e.members[0]?.id, 'base');
  if (!same(a.baseKappa, b.baseKappa)) throw new Error(`the pair's base measures disagree: ${JSON.stringify(a.baseKappa)} and ${JSON.stringify(b.baseKappa)}`);
  const bySpec = <T>(xs: T[], id: (x: T) => string) => xs.sort((x, y) => order.indexOf(id(x)) - order.indexOf(id(y)));
  return {
    type: 'base',
    members: bySpec([...a.members, ...b.members], (m) => m.id),
    base: bySpec([...a.base, ...b.base], (e) => e.memberId),
    baseKappa: a.baseKappa,
  };
}

/**
 * The two member parts' events of one step (any order) as the event a one-browser run of
 * pairSpec(spec, armId) yields at that step: the arm's metrics with both members (the pair's
 * measures, computed on both sides from the same answers, must agree), the inspector's prompt
 * with both members, the tokens summed; or, when either part blew up, the 'nonfinite' of the
 * first copy in the arm's order naming the other. `stepMs`: the pair's wall time of the step.
 */
export function mergeMemberSteps(spec: ExperimentSpec, armId: string, events: RunnerEvent[], stepMs: number): StepEvent | NonFiniteEvent {
  const s = pairSpec(spec, armId);
  const arm = s.arms[0];
  const nonfinite = events.filter((e): e is NonFiniteEvent => e.type === 'nonfinite');
  if (nonfinite.length > 0) {
    nonfinite.sort((x, y) => arm.members.indexOf(x.memberId) - arm.members.indexOf(y.memberId));
    const [first, ...others] = nonfinite;
    const halt = { step: first.step, armId: first.armId, memberId: first.memberId, quantity: first.quantity, value: first.value };
    return { type: 'nonfinite', ...halt, explanation: blowUpExplanation(s, halt, others.map((o) => ({ armId: o.armId, memberId: o.memberId }))) };
  }
  const steps = events.filter((e): e is StepEvent => e.type === 'step');
  if (steps.length !== events.length || steps.some((e) => e.step !== steps[0].step)) {
    throw new Error(`the pair's member parts are out of step: ${events.map((e) => (e.type === 'step' ? `step ${e.step}` : e.type)).join(', ')}`);
  }
  const metricsOf = (e: StepEvent): ArmStepMetrics => {
    const m = e.arms.find((x) => x.armId === armId);
    if (!m || e.arms.length !== 1) throw new Error(`a member part's step ${e.step} holds arms ${e.arms.map((x) => x.armId).join(', ')}, not arm ${armId} alone`);
    return m;
  };
  const [a, b] = inArmOrder(arm, steps.map(metricsOf), (m) => Object.keys(m.members)[0], `step ${steps[0].step}`);
  const pairs: PairMetrics[] = a.pairs;
  if (!same(a.pairs, b.pairs) || a.ensembleMajAtG !== b.ensembleMajAtG) {
    throw new Error(`the pair's measures disagree at step ${steps[0].step}: ${JSON.stringify([a.pairs, a.ensembleMajAtG])} and ${JSON.stringify([b.pairs, b.ensembleMajAtG])}`);
  }
  const metrics: ArmStepMetrics = { armId, scheme: arm.scheme, members: { ...a.members, ...b.members }, pairs };
  if (a.ensembleMajAtG !== undefined) metrics.ensembleMajAtG = a.ensembleMajAtG;
  return { type: 'step', step: steps[0].step, steps: steps[0].steps, arms: [metrics], samples: mergeSamples(arm, steps), stepMs, tokens: steps.reduce((t, e) => t + e.tokens, 0) };
}

/** The inspector's prompt of the step: one member from each part, in the arm's order. */
function mergeSamples(arm: ArmSpec, steps: StepEvent[]): RolloutSample[] {
  const samples = steps.map((e) => e.samples.find((x) => x.armId === arm.id));
  if (samples.some((x) => !x)) return [];
  const [x, y] = samples as RolloutSample[];
  if (x.prompt !== y.prompt || x.truth !== y.truth) throw new Error(`the pair's inspected prompts differ at step ${steps[0].step}: ${JSON.stringify(x.prompt)} and ${JSON.stringify(y.prompt)}`);
  const members = arm.members.map((id) => [...x.members, ...y.members].find((m) => m.memberId === id)!);
  return [{ armId: arm.id, prompt: x.prompt, truth: x.truth, members }];
}
