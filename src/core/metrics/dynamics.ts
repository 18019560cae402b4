/**
 * Training dynamics: the reward-collapse detector and response-length statistics (docs/METHOD.md:
 * "self-reward runs can collapse: reward -> 1 while accuracy falls, entropy -> 0, lengths degenerate").
 */

export interface HistoryPoint {
  step: number;
  /** Held-out pass@1, present only on evaluation steps. */
  evalPassAt1?: number;
  /** Mean label-free training reward at this step. */
  reward: number;
}

/** Evaluations per smoothed accuracy point: a trailing mean of 3 (docs/METHOD.md, "Collapse"). */
export const COLLAPSE_SMOOTHING = 3;

/**
 * Collapse step: the lab's one definition of "collapsed", used by the runner's summary,
 * the page's scoreboard, the science claims and the tables (docs/METHOD.md, "Collapse"):
 *   - the evaluations (history points with a finite evalPassAt1; the base evaluation is the first)
 *     are smoothed by a trailing mean of `smoothing` (3): point j is the mean of evaluations
 *     j-2, j-1, j, defined from the third evaluation on;
 *   - its reward is the mean label-free reward over the steps that point spans: after evaluation
 *     j-2, up to and including evaluation j (with smoothing 1: the evaluation step's own reward);
 *   - best = the highest smoothed point so far (the first one to reach it);
 *   - the collapse step is the step of the first smoothed point more than `delta` below best whose
 *     reward is higher than best's: accuracy fell although the reward rose.
 * Smoothing, because "best" as the maximum of ~9 noisy evaluations sits above the truth: with the
 * accuracy flat and evaluation noise sd 0.03, the maximum of the raw evaluations fires in about 1
 * run in 5, the smoothed rule in about 1 in 5,000 (dynamics.test.ts). Trailing, so the page can
 * show it as the run goes. Returns null if it never happens (also when the reward fell with the
 * accuracy: that is not reward hacking); a member that collapsed and recovered keeps its step.
 */
export function collapseStep(history: readonly HistoryPoint[], delta: number, smoothing = COLLAPSE_SMOOTHING): number | null {
  if (!(smoothing >= 1) || !Number.isInteger(smoothing)) throw new RangeError(`smoothing must be a whole number >= 1, got ${smoothing}`);
  // prefix[i] = sum of the rewards of history[0..i-1]: a span's mean reward in O(1).
  const prefix = [0];
  for (const h of history) prefix.push(prefix[prefix.length - 1] + h.reward);
  const evals: number[] = [];
  history.forEach((h, i) => {
    if (h.evalPassAt1 !== undefined && Number.isFinite(h.evalPassAt1)) evals.push(i);
  });
  let best = -Infinity;
  let bestReward = NaN;
  for (let j = smoothing - 1; j < evals.length; j++) {
    const first = evals[j - smoothing + 1];
    const last = evals[j];
    let acc = 0;
    for (let k = j - smoothing + 1; k <= j; k++) acc += history[evals[k]].evalPassAt1!;
    acc /= smoothing;
    const from = smoothing === 1 ? last : first + 1;
    const reward = (prefix[last + 1] - prefix[from]) / (last + 1 - from);
    if (acc > best) {
      best = acc;
      bestReward = reward;
      continue;
    }
    if (acc < best - delta && reward > bestReward) return history[last].step;
  }
  return null;
}

/**
 * One member's collapse step from its base evaluation (the start: a run can collapse from it) and
 * its RL history: the point the runner's summary, the result files' readers and the tables share.
 */
export function memberCollapseStep(basePassAt1: number | undefined, history: readonly HistoryPoint[], delta: number): number | null {
  if (history.length === 0) return null;
  // The base point's reward is never read: every span starts after its first evaluation.
  const start = basePassAt1 === undefined ? [] : [{ step: 0, evalPassAt1: basePassAt1, reward: history[0].reward }];
  return collapseStep([...start, ...history], delta);
}

/** The definition in words, with the run's delta (the page's scoreboard, the CLI's tables). */
export function collapseRule(delta: number): string {
  return (
    `a member's held-out pass@1, smoothed over ${COLLAPSE_SMOOTHING} evaluations, fell more than ${delta.toFixed(2)} below its best ` +
    'smoothed value so far while its label-free reward over the same steps was higher than at that best: ' +
    'the reward rises as real accuracy falls.'
  );
}

export interface LengthStats {
  /** Mean completion length (as the caller counts it; the rollout counts tokens before EOS). */
  meanLength: number;
  /** Fraction of completions that hit the cap: no EOS within the budget, or length >= cap. */
  capFraction: number;
}

/** Mean response length and the fraction that hits the length cap. NaN for an empty batch. */
export function lengthStats(lengths: ArrayLike<number>, finished: ArrayLike<boolean>, cap: number): LengthStats {
  if (lengths.length !== finished.length) throw new RangeError('lengthStats: lengths and finished differ in length');
  const n = lengths.length;
  if (n === 0) return { meanLength: NaN, capFraction: NaN };
  let total = 0;
  let hit = 0;
  for (let i = 0; i < n; i++) {
    total += lengths[i];
    if (!finished[i] || lengths[i] >= cap) hit++;
  }
  return { meanLength: total / n, capFraction: hit / n };
}
