/**
 * What one RL step of a stack may cost the GPU on the fused path: dispatches, queue submits and
 * buffer readbacks, counted exactly (src/core/benchmark/counters.ts) by budgets.test.ts and by the
 * bench (cli/bench/bench-fused.ts), whose results file makes BENCHMARKS' counts table.
 *
 * The budgets are what makes a step cheap on a real GPU: each dispatch costs tens of microseconds
 * of API and driver whatever its size, each submit and readback more (docs/BENCHMARKS.md), and
 * tfjs's path pays hundreds of dispatches and tens of submits a step.
 */
import type { Family } from '../../core/models/policy';

export interface GpuCounts {
  dispatches: number;
  submits: number;
  gpuReadbacks: number;
}

export const STEP_BUDGETS: Record<Family, GpuCounts> = {
  mlp: { dispatches: 30, submits: 1, gpuReadbacks: 1 },
  gru: { dispatches: 30, submits: 1, gpuReadbacks: 1 },
  transformer: { dispatches: 60, submits: 1, gpuReadbacks: 1 },
};

/** Each count over its budget, in words; [] when within. */
export function overBudget(family: Family, counts: GpuCounts): string[] {
  const budget = STEP_BUDGETS[family];
  return (Object.keys(budget) as (keyof GpuCounts)[])
    .filter((k) => counts[k] > budget[k])
    .map((k) => `a fused ${family} step made ${counts[k]} ${k}, over its budget of ${budget[k]}`);
}

/**
 * What a steady fused step of a stack makes, exactly (this step's update and the next step's
 * rollouts in one encoder; budgets.test.ts counts it, whatever the number of models): the fold,
 * the rollout, and rowGrad, paramGrad, foldGrad, norm, adam, stats; no tfjs kernel or readback.
 */
export const FUSED_STEP_COUNTS: Partial<Record<Family, GpuCounts & { kernels: number; readbacks: number }>> = {
  mlp: { dispatches: 8, submits: 1, gpuReadbacks: 1, kernels: 0, readbacks: 0 },
};
