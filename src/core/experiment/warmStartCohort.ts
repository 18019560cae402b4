/**
 * The warm start of the whole cohort, as a stream of progress events: each member is built once
 * (loaded from a WarmStartCache when one matches, else trained), in spec order, while its
 * progress events stream out as they arrive. The runner yields these to its consumer.
 *
 * The guard (docs/WARMSTARTS.md, "The guard"): a member with a warm-start target that it did not
 * reach never enters RL. With warmStart.onMiss 'stop' (the default) the stream throws a
 * WarmStartMissError naming the member, before the base evaluation; with 'retry' the member is
 * rebuilt with the next init seeds (initSeed + 1, + 2, ...; the data seed stays) up to
 * warmStart.retries times, and throws the same error when every one misses.
 */
import type { ExperimentSpec, MemberSpec } from './spec';
import type { MemberInfo, RunnerEvent } from './events';
import type { WarmMember, WarmStartInputs } from './cohort';
import { loadOrBuildMember, type WarmStartSource, type WarmStartStore } from './warmStartCache';
import { percent } from './fitMembers';
import { atChance, promptBlindChance, type MissCause, type MissMeasurements } from './missCause';
import { labeledSplit } from './cohort';
import type { ScratchpadMode } from '../tasks/types';
import { diagnoseMiss } from './missMeasure';
import { missedTargetText } from './missWords';

/** The cohort's warm start: the experiment's inputs (resolve.ts warmStartInputs), where to store them, which members. */
export interface CohortWarmStart extends WarmStartInputs, WarmStartStore {
  /** Build only these members (a part of a pooled run: parts.ts partMembers); absent: every member. */
  only?: ReadonlySet<string>;
}

// ---- the guard ----------------------------------------------------------------------------------

/** spec.warmStart.onMiss and .retries when absent. */
export const DEFAULT_ON_MISS = 'stop';
export const DEFAULT_WARM_START_RETRIES = 2;
/** The schema's most retries (spec.ts). */
const MAX_WARM_START_RETRIES = 5;

/** What a miss does in a run of `spec`: how many warm starts a member with a target may have. */
export function missPolicy(spec: ExperimentSpec): { onMiss: 'stop' | 'retry' | 'continue'; retries: number } {
  const onMiss = spec.warmStart.onMiss ?? DEFAULT_ON_MISS;
  return { onMiss, retries: onMiss === 'retry' ? (spec.warmStart.retries ?? DEFAULT_WARM_START_RETRIES) : 0 };
}

/** A member that missed its warm-start target, with every init seed it was given. */
export interface WarmStartMiss {
  memberId: string;
  target: number;
  /** The member's warm-start budget (a miss takes all of it). */
  steps: number;
  /** The best validation value over all its warm starts; null when none was recorded. */
  best: number | null;
  initSeeds: number[];
  onMiss: 'stop' | 'retry' | 'continue';
}

/** 0.40, 0.375, 2.0e-5: two decimals where they say it all. */
const fmt = (x: number) => (x !== 0 && Math.abs(x) < 0.01 ? x.toExponential(1) : x.toFixed(Math.abs(x * 100 - Math.round(x * 100)) < 1e-9 ? 2 : 3));
const listOf = (xs: number[]) => (xs.length === 1 ? String(xs[0]) : `${xs.slice(0, -1).join(', ')} or ${xs[xs.length - 1]}`);

/** One line: the member, its target, what it reached, and what to change. */
export function missMessage(m: WarmStartMiss): string {
  const seeds = m.initSeeds.length > 1 ? ` with init seed ${listOf(m.initSeeds)}` : '';
  const best = m.best === null ? '' : ` (best ${fmt(m.best)})`;
  const more =
    m.onMiss === 'stop' ? ", or set warmStart.onMiss to 'retry'" : m.initSeeds.length - 1 < MAX_WARM_START_RETRIES ? ', or allow more warmStart.retries' : '';
  return (
    `member ${m.memberId} did not reach its warm-start target ${fmt(m.target)} in ${m.steps} steps${seeds}${best}: ` +
    `give it more warm-start steps, a lower target or another initSeed${more}`
  );
}

/**
 * A miss for a student: one sentence with the best reached, the cause as measured (missCause.ts:
 * the window, the rows it trained on against those it did not see, chance) and what would help for
 * that cause, never a spec field (a custom task's error says it; for a built-in task it is the
 * error's `plain`, which the page shows). The page offers to go on from the best reached
 * (warmStart.onMiss 'continue', which the CLI's --go-on sets); the warm start kept its best weights
 * (cohort.ts). Without a measured cause (none could be taken), the sentence lists what may help.
 */
export function outOfReach(spec: ExperimentSpec, m: WarmStartMiss, cause?: MissCause): { message: string; suggestions: string[] } {
  const suggestions = cause ? cause.help : guesses(spec, m);
  const measured = cause ? `Measured: ${cause.why}. ` : '';
  const message =
    `${missedTargetText(m)}, so this task looks out of its reach for now. ` +
    `${measured}What would help: ${suggestions.join('; ')}. You can also go on from the best it reached.`;
  return { message, suggestions };
}

/** What may help a miss whose cause was not measured. */
function guesses(spec: ExperimentSpec, m: WarmStartMiss): string[] {
  const member = spec.members.find((x) => x.id === m.memberId);
  const def = spec.task.definition;
  const suggestions: string[] = [];
  const hasScratchpad = def ? (def.kind === 'generator' ? !!def.scratchpad?.trim() : def.rows.some((r) => !!r.scratchpad)) : true;
  if (!hasScratchpad) suggestions.push('a scratchpad rule that writes the working steps before the answer');
  else if (spec.task.scratchpad !== 'always') suggestions.push('showing the scratchpad in every warm-start example (scratchpad: always)');
  if (member && (member.dModel < 128 || member.layers < 4)) {
    suggestions.push(member.dModel < 128 ? `a bigger model (width ${2 * member.dModel} instead of ${member.dModel})` : `a deeper model (${member.layers + 1} layers)`);
  }
  if (def) suggestions.push(def.kind === 'data' ? 'easier or more rows' : 'an easier range (smaller numbers in the variables)');
  else if (spec.task.difficulty > 1) suggestions.push(`a lower difficulty (${spec.task.difficulty - 1} instead of ${spec.task.difficulty})`);
  if (member && member.warmStartSteps < 10000) suggestions.push(`more warm-start steps (${Math.min(20000, 2 * member.warmStartSteps)} instead of ${member.warmStartSteps})`);
  return suggestions;
}

/** The run stopped before RL: a member did not reach its warm-start target. */
export class WarmStartMissError extends Error {
  override name = 'WarmStartMissError';
  readonly memberId: string;
  readonly target: number;
  readonly best: number | null;
  readonly steps: number;
  readonly initSeeds: number[];
  /** A custom task's miss: what would help, in words (the message says them too). */
  readonly suggestions: string[] | undefined;
  /** The miss in a student's words (outOfReach), whatever the task: what the page shows. */
  readonly plain: string | undefined;
  /** The cause as measured (missCause.ts), and the measurements it was read from. */
  readonly measuredCause: MissCause | undefined;
  readonly measured: MissMeasurements | undefined;
  constructor(miss: WarmStartMiss, plain?: { message: string; suggestions: string[] }, forStudents?: string, diagnosis?: { cause: MissCause; measured: MissMeasurements }) {
    super(plain ? plain.message : missMessage(miss));
    this.suggestions = plain?.suggestions;
    this.plain = forStudents ?? plain?.message;
    this.memberId = miss.memberId;
    this.target = miss.target;
    this.best = miss.best;
    this.steps = miss.steps;
    this.initSeeds = miss.initSeeds;
    this.measuredCause = diagnosis?.cause;
    this.measured = diagnosis?.measured;
  }
}

/** Did this warm start miss its member's target? (Unrecorded counts as missed: never silent.) */
export function missedTarget(member: MemberSpec, info: MemberInfo): boolean {
  return member.warmStartTarget > 0 && info.warmStartReached !== true;
}

const bestOf = (info: MemberInfo): number | null => info.warmStartBest ?? info.warmStartLast ?? null;

/**
 * A target reached on so few labeled rows the member did not train on that chance would reach it
 * too (missCause.ts atChance): the warm start says little about learning, and the note says so
 * with the numbers. Null when the target was reached with evidence, or there was none to reach.
 */
function thinEvidence(c: WarmStartInputs, w: WarmMember): string | null {
  const best = bestOf(w.info);
  if (w.spec.warmStartTarget <= 0 || w.info.warmStartReached !== true || best === null) return null;
  const { train, validation } = labeledSplit(c.pool, w.spec, c.root);
  const chance = promptBlindChance([...train, ...validation], c.spec.task.scratchpad as ScratchpadMode);
  if (!atChance(best, chance, validation.length)) return null;
  const rows = `${validation.length} labeled row${validation.length === 1 ? '' : 's'}`;
  return (
    `its warm-start target was reached on ${rows} it did not train on, where chance (always writing the most common completion, ${percent(chance)}) ` +
    `could reach it too: too few rows to tell learning from memory`
  );
}

// ---- the stream -----------------------------------------------------------------------------------

type Built = WarmMember & { source: WarmStartSource };

/**
 * Build one member (as `member`: the spec's, or its retry with another init seed), yielding its
 * progress as it arrives; returns it. A consumer that stops pulling mid-member leaves nothing
 * behind: the member is disposed when it is done.
 */
async function* buildStreaming(c: CohortWarmStart, member: MemberSpec, index: number): AsyncGenerator<RunnerEvent, Built, void> {
  const { spec } = c;
  const queue: RunnerEvent[] = [];
  let wake: (() => void) | null = null;
  let finished = false;
  const building = loadOrBuildMember(c, member, (s, n, loss, validation) => {
    queue.push({
      type: 'warmstart',
      memberId: member.id,
      step: s,
      steps: n,
      loss,
      memberIndex: index,
      memberCount: spec.members.length,
      ...(member.warmStartTarget > 0 ? { target: member.warmStartTarget } : {}),
      ...(validation !== undefined ? { validation } : {}),
    });
    wake?.();
  }).finally(() => {
    finished = true;
    wake?.();
  });
  try {
    while (!finished || queue.length > 0) {
      if (queue.length > 0) yield queue.shift()!;
      else await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    // The consumer stopped pulling mid warm start: the member still being built is disposed
    // when it is done, so a stopped run leaves no tensor behind.
    if (!finished) void building.then((w) => w.reference.dispose(), () => {});
  }
  return building;
}

/**
 * Build every member into `warm`, yielding 'warmstart' events. `stopped()` is checked after each
 * member: once true, the member just built is disposed and the stream ends. A member that misses
 * its target (after its retries) throws WarmStartMissError; the members built before it are in
 * `warm` (the runner's dispose frees them).
 */
export async function* warmStartCohort(
  c: CohortWarmStart,
  warm: Map<string, WarmMember>,
  stopped: () => boolean,
): AsyncGenerator<RunnerEvent, void, void> {
  const { spec } = c;
  const policy = missPolicy(spec);
  for (let i = 0; i < spec.members.length; i++) {
    const m = spec.members[i];
    if (c.only && !c.only.has(m.id)) continue;
    const retrying = policy.onMiss === 'retry' && m.warmStartTarget > 0;
    const seeds: number[] = [];
    let best: number | null = null;
    let w: Built | null = null;
    // The last warm start that missed, kept until its miss is measured (diagnoseMiss).
    let missed: Built | null = null;
    for (let k = 0; k <= (retrying ? policy.retries : 0); k++) {
      // Retry k is the warm start of the member with initSeed + k: a spec of its own, so a stored
      // warm start is looked up (and a trained one saved) under the key of the seed that made it.
      const effective: MemberSpec = k === 0 ? m : { ...m, initSeed: m.initSeed + k };
      const built = yield* buildStreaming(c, effective, i);
      if (stopped()) {
        built.reference.dispose();
        missed?.reference.dispose();
        return;
      }
      seeds.push(effective.initSeed);
      const value = bestOf(built.info);
      if (value !== null) best = Math.max(best ?? value, value);
      // 'continue' keeps a member that missed: RL starts from what it reached.
      if (!missedTarget(effective, built.info) || policy.onMiss === 'continue') {
        w = built;
        if (retrying) w.info = { ...w.info, warmStartInitSeed: effective.initSeed, warmStartRetries: k };
        break;
      }
      missed?.reference.dispose();
      missed = built;
    }
    if (!w) {
      const miss: WarmStartMiss = { memberId: m.id, target: m.warmStartTarget, steps: m.warmStartSteps, best, initSeeds: seeds, onMiss: policy.onMiss };
      let diagnosis: { cause: MissCause; measured: MissMeasurements };
      try {
        // Measured on the weights it ended with: their own held-out value, beside their fit.
        diagnosis = await diagnoseMiss(c, missed!, bestOf(missed!.info));
      } finally {
        missed!.reference.dispose();
      }
      const plain = outOfReach(spec, miss, diagnosis.cause);
      throw new WarmStartMissError(miss, spec.task.id === 'custom' ? plain : undefined, plain.message, diagnosis);
    }
    missed?.reference.dispose();
    const thin = thinEvidence(c, w);
    if (thin) w.info = { ...w.info, warmStartNote: [w.info.warmStartNote, thin].filter(Boolean).join('; ') };
    warm.set(m.id, w);
    if (m.warmStartSteps === 0 || w.source !== 'trained') {
      // No progress was reported: one event says the member is ready.
      yield { type: 'warmstart', memberId: m.id, step: 0, steps: 0, loss: NaN, memberIndex: i, memberCount: spec.members.length };
    }
    if (stopped()) return;
  }
}
