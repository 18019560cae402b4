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

/**
 * Collapse step: the first step at which held-out accuracy is more than `delta` below its best so
 * far while the label-free reward keeps rising. Concretely, walking the history in order:
 *   - best = the highest evalPassAt1 seen so far (the first step reaching it is the best step);
 *   - rewardMA(i) = mean reward over the last `window` history points up to and including i;
 *   - step i is the collapse step if evalPassAt1(i) < best - delta and rewardMA(i) > rewardMA(best
 *     step): accuracy has fallen although the (smoothed) reward is higher than when accuracy peaked.
 * The moving average keeps single noisy steps from counting as "rising". Returns null if it never
 * happens (including when accuracy falls while the reward falls too: that is not reward hacking).
 */
export function collapseStep(history: readonly HistoryPoint[], delta: number, window = 5): number | null {
  if (!(window >= 1)) throw new RangeError(`window must be >= 1, got ${window}`);
  const ma: number[] = [];
  let sum = 0;
  history.forEach((h, i) => {
    sum += h.reward;
    if (i >= window) sum -= history[i - window].reward;
    ma.push(sum / Math.min(i + 1, window));
  });

  let best = -Infinity;
  let bestIdx = -1;
  for (let i = 0; i < history.length; i++) {
    const acc = history[i].evalPassAt1;
    if (acc === undefined || Number.isNaN(acc)) continue;
    if (acc > best) {
      best = acc;
      bestIdx = i;
      continue;
    }
    if (acc < best - delta && ma[i] > ma[bestIdx]) return history[i].step;
  }
  return null;
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
