/**
 * What a run reports: the runner yields these events, the worker forwards them to the UI, and the
 * CLI folds them into its JSON. Plain data only (structured-clone safe, JSON safe).
 */
import type { RewardSchemeId } from './spec';

/** Per step, per member of an arm. Rates are in [0, 1]; null where undefined (e.g. no labeled prompt). */
export interface MemberStepMetrics {
  /** Mean label-free reward of the arm's scheme over the step's rollouts. */
  reward: number;
  /** Mean oracle reward (the fraction of rollouts that are correct): training-batch pass@1. */
  oracleReward: number;
  /**
   * Fraction of labeled prompts whose pseudo-label (the vote the reward matches answers against)
   * equals the truth; null where there is no pseudo-label: the oracle (its label is the truth) and
   * the intrinsic schemes (no label), and at a step with no labeled prompt.
   */
  pseudoLabelAccuracy: number | null;
  /**
   * Fraction of rollouts whose label-free reward equals the oracle reward; null for the intrinsic
   * schemes (entropy, certainty), whose reward is not a 0-1 label match.
   */
  rewardAccuracy: number | null;
  /** reward - oracleReward: the hacking gap; null for the intrinsic schemes (not on a 0-1 scale). */
  rewardGap: number | null;
  /**
   * The mechanism (metrics/mechanism.ts): its own plurality's accuracy on the step's prompts; where
   * it is wrong, how often the label it is trained on is right (rescue); where it is right, how
   * often the label is wrong (mislead); how often the label is wrong and equal to its own vote
   * (shared error). null where undefined (no labels: the intrinsic schemes). Its own vote is the
   * plain plurality of its samples, whatever the arm's tau (tau decides which prompts are rewarded).
   */
  ownVoteAccuracy: number;
  rescueRate: number | null;
  misleadRate: number | null;
  sharedErrorRate: number | null;
  labeledFraction: number;
  majorityRatio: number;
  tieRate: number;
  /** Mean token entropy of the sampled completions (nats). */
  entropy: number;
  /** Mean completion length in tokens (EOS included). */
  length: number;
  /** Fraction of completions that hit the length cap. */
  capFraction: number;
  /** Fraction of completions with no parseable answer. */
  malformedFraction: number;
  /** Mean within-group reward std, and the fraction of groups with zero std (no learning signal). */
  rewardStd: number;
  zeroStdFraction: number;
  /** Fraction of prompts whose supervising votes contain the truth (null for oracle/intrinsic). */
  supervisionContainsTruth: number | null;
  /** Share of all votes taken by the single most common answer across the batch (mode collapse). */
  topAnswerShare: number;
  loss: number;
  /** Mean k3 KL to the warm-started reference per completion token; null when beta = 0 (not computed). */
  kl: number | null;
  clipFraction: number;
  gradNorm: number;
  /** Held-out pass@1 and maj@G, on evaluation steps only. */
  evalPassAt1?: number;
  evalMajAtG?: number;
}

export interface PairMetrics {
  a: string;
  b: string;
  /** Both pluralities defined and equal, over prompts where both are defined. */
  agreement: number | null;
  /** Cohen's kappa of per-prompt correctness (training batch pluralities). */
  kappa: number | null;
  /** Fraction of prompts where both pluralities are wrong with the same answer. */
  bothWrongSame: number;
  /** Held-out versions, on evaluation steps. */
  evalKappa?: number | null;
  evalBothWrongSame?: number;
}

export interface ArmStepMetrics {
  armId: string;
  scheme: RewardSchemeId;
  members: Record<string, MemberStepMetrics>;
  pairs: PairMetrics[];
  /** Compute-matched control on evaluation steps: the arm's first two members pooled by maj@G. */
  ensembleMajAtG?: number;
}

/** One prompt of a step, for the rollout inspector. */
export interface RolloutSample {
  armId: string;
  prompt: string;
  truth: string;
  members: {
    memberId: string;
    completions: (string | null)[];
    answers: (string | null)[];
    /** This member's own plurality vote on the prompt. */
    plurality: string | null;
    /** The pseudo-label its reward was computed against (null = unlabeled or not vote-based). */
    pseudoLabel: string | null;
    rewards: number[];
    oracleRewards: number[];
  }[];
}

export interface MemberInfo {
  id: string;
  family: string;
  params: number;
  label: string;
  /** Warm-start steps actually taken (fewer than the spec's when a target stopped it early). */
  warmStartSteps?: number;
  /**
   * Where the warm-started weights came from: trained in this run, shipped with the site
   * (public/warmstarts, made by `npm run warmstarts`) or a cache of an earlier run of the same
   * warm start (warmStartCache.ts). Absent in results saved before stored warm starts existed.
   */
  warmStartSource?: 'trained' | 'shipped' | 'cached';
  /** The backend that computed the warm-started weights (another one than the run's: they define the run). */
  warmStartBackend?: string;
  /** Plain text: why a stored warm start was refused, or why this one could not be cached. */
  warmStartNote?: string;
  /**
   * With a warm-start target (MemberSpec.warmStartTarget > 0): whether the member reached it
   * within its warm-start steps (docs/WARMSTARTS.md, "The guard": a run never starts RL with a
   * member that missed). Absent without a target and in results saved before the guard existed.
   */
  warmStartReached?: boolean;
  /** The best and the last validation value of the warm start (mean reference probability). */
  warmStartBest?: number;
  warmStartLast?: number;
  /**
   * With warmStart.onMiss 'retry': the init seed the warm start that is used had (the spec's
   * initSeed + warmStartRetries), and how many times the member was rebuilt after a miss.
   */
  warmStartInitSeed?: number;
  warmStartRetries?: number;
}

export interface BaseEvaluation {
  memberId: string;
  passAt1: number;
  majAtG: number;
  /** Warm-start steps the member took (absent in results saved before targets existed). */
  warmStartSteps?: number;
}

/** Two warm-started members on the held-out set, before any RL. */
export interface BasePair {
  a: string;
  b: string;
  /** Cohen's kappa of per-problem maj@G correctness. */
  kappa: number | null;
  bothWrongSame: number;
  /**
   * Correlation of the two members' per-problem sample accuracies (metrics/overlap.ts): the finer
   * overlap measure; absent in results saved before it was measured.
   */
  passCorrelation?: number | null;
  /**
   * The untrained pair's 2G samples per problem pooled into one plurality (the baseline of the
   * compute-matched control); absent in results saved before it was measured.
   */
  pooledMajAtG?: number;
}

export type RunnerEvent =
  | {
      type: 'warmstart';
      memberId: string;
      step: number;
      /** The step limit (with a target, the warm start usually stops before it). */
      steps: number;
      loss: number;
      memberIndex: number;
      memberCount: number;
      /** The member's warm-start target, when it has one. */
      target?: number;
      /** With a target: the latest validation value (the warm-start curve a page draws against the target). */
      validation?: number;
    }
  | {
      type: 'base';
      members: MemberInfo[];
      base: BaseEvaluation[];
      /** Held-out error overlap of every pair of members at the base, and the pair pooled by maj@G. */
      baseKappa: BasePair[];
    }
  | { type: 'step'; step: number; steps: number; arms: ArmStepMetrics[]; samples: RolloutSample[]; stepMs: number; tokens: number }
  /**
   * Step `step` made a loss, gradient norm or weight of a trained copy non-finite (the first one,
   * in the order the update computes them: grpo/nonfinite.ts). The runner yields this instead of
   * that step's 'step' event and then ends (no 'done'); its weights are poisoned, so checkpoint()
   * throws from here on. `explanation` is plain words for the page and the CLI (blowUp.ts).
   */
  | {
      type: 'nonfinite';
      step: number;
      armId: string;
      memberId: string;
      quantity: 'loss' | 'gradient' | 'weight';
      value: 'NaN' | 'Infinity' | '-Infinity';
      explanation: string;
      /**
       * A part of a pooled run only (RunOptions.part, parts.ts): the other copies of this part
       * that blew up at the same step, so the pool names them all; the pool's merged event has none.
       */
      alsoAt?: { armId: string; memberId: string }[];
    }
  | { type: 'done'; summary: RunSummary };

/** Where a run stopped on a non-finite number (the 'nonfinite' event, without its words). */
export type RunHalt = Pick<Extract<RunnerEvent, { type: 'nonfinite' }>, 'step' | 'armId' | 'memberId' | 'quantity'>;

export interface MemberHistoryEntry extends MemberStepMetrics {
  step: number;
}

export interface RunSummary {
  seed: number;
  arms: {
    id: string;
    scheme: RewardSchemeId;
    members: { id: string; family: string; params: number; history: MemberHistoryEntry[]; collapseStep: number | null }[];
    pairs: (PairMetrics & { step: number })[];
    ensemble: { step: number; majAtG: number }[];
  }[];
  base: BaseEvaluation[];
  baseKappa: BasePair[];
  medianStepMs: number;
  backend: string;
  /** Set when the run stopped on a non-finite number at this step (its 'step' never came). */
  halt?: RunHalt;
}
