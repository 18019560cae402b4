/**
 * Group-relative advantages (GRPO) and the within-group reward statistics.
 *
 * Rewards are prompt-major: rollout i = b * G + g. Every advantage subtracts the group mean; the
 * `scale` option chooses what it is divided by, as TRL's `scale_rewards` does
 * (huggingface/trl trl/trainer/grpo_trainer.py, `_generate_and_score_completions`):
 *   group: (r - mean_g) / (std_g + eps)          the GRPO paper's choice
 *   batch: (r - mean_g) / (std_batch + eps)      std over all B * G rewards
 *   none:  r - mean_g                            Dr. GRPO (arXiv 2503.20783): no std division,
 *                                                which removes the question-difficulty bias
 *
 * Which std: TRL computes `rewards.view(-1, G).std(dim=1)` and `rewards.std()`, and torch.std is the
 * unbiased estimator (Bessel's correction, divide by n - 1) by default. We match TRL so that our
 * advantages equal a TRL run's on the same rewards: e.g. group [1, 0, 0, 1] has std
 * sqrt(1/3) = 0.577, not the population 0.5. With G = 1 (or one reward in the batch) TRL sets the std
 * to 0, and so do we. eps = 1e-4 is TRL's constant.
 */

export type AdvantageScale = 'group' | 'batch' | 'none';

/** Unbiased (n - 1) standard deviation of xs[start, start + n); 0 when n < 2. Float64 throughout. */
function sampleStd(xs: ArrayLike<number>, start: number, n: number, mean: number): number {
  if (n < 2) return 0;
  let ss = 0;
  for (let i = start; i < start + n; i++) ss += (xs[i] - mean) ** 2;
  return Math.sqrt(ss / (n - 1));
}

function mean(xs: ArrayLike<number>, start: number, n: number): number {
  let s = 0;
  for (let i = start; i < start + n; i++) s += xs[i];
  return s / n;
}

function checkShape(rewards: ArrayLike<number>, B: number, G: number): void {
  if (!Number.isInteger(B) || !Number.isInteger(G) || B < 1 || G < 1) {
    throw new RangeError(`B and G must be positive integers, got B = ${B}, G = ${G}`);
  }
  if (rewards.length !== B * G) throw new RangeError(`rewards: length ${rewards.length} != B * G = ${B * G}`);
}

/** One advantage per rollout (B * G, prompt-major). */
export function groupAdvantages(
  rewards: ArrayLike<number>,
  B: number,
  G: number,
  scale: AdvantageScale,
  eps = 1e-4,
): Float32Array {
  checkShape(rewards, B, G);
  const out = new Float32Array(B * G);
  const batchStd = scale === 'batch' ? sampleStd(rewards, 0, B * G, mean(rewards, 0, B * G)) : 0;
  for (let b = 0; b < B; b++) {
    const m = mean(rewards, b * G, G);
    const denom = scale === 'group' ? sampleStd(rewards, b * G, G, m) + eps : scale === 'batch' ? batchStd + eps : 1;
    for (let g = 0; g < G; g++) out[b * G + g] = (rewards[b * G + g] - m) / denom;
  }
  return out;
}

export interface GroupStats {
  /** Per prompt: the mean reward of its G rollouts. */
  mean: Float32Array;
  /** Per prompt: the within-group reward std (unbiased, as in groupAdvantages and TRL's logged `reward_std`). */
  std: Float32Array;
  /** Fraction of groups whose rewards are all equal: they give no learning signal under GRPO. */
  zeroStdFraction: number;
}

/**
 * Within-group reward statistics. A group counts as zero-std when its std is within 1e-8 of 0:
 * TRL's `frac_reward_zero_std` uses torch.isclose(std, 0), whose default atol is 1e-8.
 */
export function groupStats(rewards: ArrayLike<number>, B: number, G: number): GroupStats {
  checkShape(rewards, B, G);
  const means = new Float32Array(B);
  const std = new Float32Array(B);
  let zero = 0;
  for (let b = 0; b < B; b++) {
    const m = mean(rewards, b * G, G);
    const s = sampleStd(rewards, b * G, G, m);
    means[b] = m;
    std[b] = s;
    if (s <= 1e-8) zero++;
  }
  return { mean: means, std, zeroStdFraction: zero / B };
}
