/**
 * The overlap dial's warm start (dialSpec.ts for the two modes; docs/METHOD.md, "Overlap dial"):
 * a member whose warm start shares a chosen part of its source's, so that its base errors overlap
 * the source's by about that much.
 *
 * Both modes replay the source's own warm start first (the same init, data, order and target as
 * buildMember: bit-identical weights), keeping its weights after every step. A fork takes the
 * weights after round(share * S) of its S steps and goes on from there with its own data and
 * order (a fresh optimizer) to its own target; share 1 is the source itself (a twin: no step of
 * its own). A labels member imitates the source's greedy completions on the first round(share * n)
 * of its n warm-start problems (its set is already a seeded shuffle) and the references on the rest.
 * The replay is kept for the last source asked (a preset's levels share one anchor), so a cohort
 * of k dial members replays its anchor once.
 */
import * as tf from '@tensorflow/tfjs';
import type { Rng } from '../random';
import type { NamedWeight, Policy } from '../models/policy';
import { createPolicy, describePolicy } from '../models/index';
import { promptTokens, taskCodec } from '../tasks/index';
import type { Problem, ScratchpadMode } from '../tasks/types';
import { validationValue, warmStart, type WarmStartResult } from '../warmstart';
import { sampleRollouts } from '../rollout';
import {
  buildMember,
  labeledSplit,
  memberWarmStart,
  policyConfigFor,
  targetRecord,
  warmStartOptions,
  warmStartRng,
  type TargetRecord,
  type WarmMember,
  type WarmStartInputs,
  type WarmStartProgress,
} from './cohort';
import type { MemberSpec } from './spec';

interface Replay {
  key: string;
  /** Weights after step s (s = 0: the initial weights). */
  snapshots: NamedWeight[][];
  result: WarmStartResult;
}

let lastReplay: Replay | null = null;

/** The source's warm start as buildMember runs it, with its weights after every step. */
async function replaySource(c: WarmStartInputs, source: MemberSpec): Promise<Replay> {
  const { spec, pool, vocabSize, maxLen, root } = c;
  const { initSeed, dataSeed, family, dModel, layers, heads, window, warmStartSteps, warmStartTarget, warmStartExamples } = source;
  const key = JSON.stringify([tf.getBackend(), spec.seed, spec.task, spec.data, memberWarmStart(spec, source), vocabSize, maxLen, pool.length,
    initSeed, dataSeed, family, dModel, layers, heads, window, warmStartSteps, warmStartTarget, warmStartExamples]);
  if (lastReplay?.key === key) return lastReplay;
  const { train, validation } = labeledSplit(pool, source, root);
  const policy = createPolicy(policyConfigFor(source, vocabSize, maxLen), root.child(`init/${initSeed}/${family}`));
  try {
    const snapshots: NamedWeight[][] = [await policy.exportWeights()];
    const result = await warmStart(policy, train, {
      ...warmStartOptions(c, source, validation),
      onStep: async () => void snapshots.push(await policy.exportWeights()),
    });
    lastReplay = { key, snapshots, result };
    return lastReplay;
  } finally {
    policy.dispose();
  }
}

/** The source's greedy completions on `problems` (null where it hit the length cap). */
async function greedyCompletions(source: Policy, c: WarmStartInputs, problems: Problem[], rng: Rng): Promise<(string | null)[]> {
  if (problems.length === 0) return [];
  const { task } = c;
  const d = c.spec.task.difficulty;
  // The longest correct completion plus EOS: a longer one would not fit the warm start's sequences.
  const batch = await sampleRollouts(source, problems.map((p) => promptTokens(task, d, p.prompt)), task, d, {
    groupSize: 1,
    temperature: 0,
    maxNewTokens: task.maxCompletionLength(d) + 1,
    rng,
  });
  return batch.completions;
}

/** Build and warm-start a member with a dial (spec.ts checked that its source exists and fits). */
export async function buildDialMember(c: WarmStartInputs, member: MemberSpec, onProgress?: WarmStartProgress): Promise<WarmMember> {
  const { spec, vocabSize, maxLen, root } = c;
  const dial = member.dial!;
  const source = spec.members.find((m) => m.id === dial.from);
  if (!source) throw new Error(`member ${member.id}: no member "${dial.from}" to share a warm start with`);
  const replay = await replaySource(c, source);
  const S = replay.result.steps;
  const config = policyConfigFor(member, vocabSize, maxLen);
  const { train, validation } = labeledSplit(c.pool, member, root);
  const useTarget = member.warmStartTarget > 0;
  const continueOpts = (targets?: (string | null)[]) => ({ ...warmStartOptions(c, member, validation, onProgress), targets });
  const sourceInit = root.child(`init/${source.initSeed}/${source.family}`);
  const k = Math.round(dial.share * S);
  if (dial.mode !== 'labels' && (dial.mode === 'fork' ? k === S : dial.share === 1)) {
    // The whole of the source's warm start: the source's weights and its record (a twin).
    const policy = createPolicy(config, sourceInit);
    policy.importWeights(replay.snapshots[S]);
    return dialMember(member, policy, 0, targetRecord(member, replay.result.validation, replay.result.reachedTarget));
  }
  let targets: (string | null)[] | undefined;
  let policy: Policy;
  let before = 0;
  if (dial.mode === 'labels') {
    // No warm-start step (the backend probe): the labels would not be read.
    const m = member.warmStartSteps > 0 ? Math.round(dial.share * train.length) : 0;
    const src = createPolicy(policyConfigFor(source, vocabSize, maxLen), sourceInit);
    try {
      src.importWeights(replay.snapshots[S]);
      const inherited = await greedyCompletions(src, c, train.slice(0, m), root.child(`dial/${member.dataSeed}/labels`));
      targets = train.map((_, i) => (i < m ? inherited[i] : null));
    } finally {
      src.dispose();
    }
    policy = createPolicy(config, root.child(`init/${member.initSeed}/${member.family}`));
  } else {
    policy = createPolicy(config, sourceInit);
    policy.importWeights(replay.snapshots[dial.mode === 'fork' ? k : 0]);
  }
  try {
    if (dial.mode === 'blend') {
      // Its own warm start from the source's init, then part of the way to the source's weights.
      const own = await warmStart(policy, train, continueOpts());
      before = own.steps;
      const mine = await policy.exportWeights();
      const theirs = new Map(replay.snapshots[S].map((w) => [w.name, w.values]));
      policy.importWeights(mine.map((w) => ({ ...w, values: w.values.map((x, j) => (1 - dial.share) * x + dial.share * theirs.get(w.name)![j]) })));
      if (useTarget) {
        const value = await validationValue(policy, validation, spec.task.scratchpad as ScratchpadMode, warmStartRng(member, root), taskCodec(c.task, spec.task.difficulty));
        if (value >= member.warmStartTarget) return dialMember(member, policy, before, targetRecord(member, [{ step: before, value }], true));
      }
    }
    const result = await warmStart(policy, train, continueOpts(targets));
    return dialMember(member, policy, before + result.steps, targetRecord(member, result.validation, result.reachedTarget));
  } catch (e) {
    policy.dispose();
    throw e;
  }
}

function dialMember(member: MemberSpec, policy: Policy, steps: number, record: TargetRecord): WarmMember {
  const config = policy.config;
  return {
    spec: member,
    reference: policy,
    info: { id: member.id, family: member.family, params: policy.paramCount(), label: describePolicy(config), warmStartSteps: steps, ...record },
  };
}

/** Forget the kept replay (tests; a long-lived worker that moves on to other experiments). */
export function clearDialReplay(): void {
  lastReplay = null;
}

/** A member's warm start, whichever kind: buildDialMember for a member with a dial, else buildMember. */
export function buildWarmMember(c: WarmStartInputs, member: MemberSpec, onProgress?: WarmStartProgress): Promise<WarmMember> {
  return member.dial ? buildDialMember(c, member, onProgress) : buildMember(c, member, onProgress);
}
