/**
 * Plurality voting over extracted answers: the pseudo-label of TTRL, SRT and Co-RL.
 *
 * A model samples G completions for a prompt; an answer is extracted from each. A malformed or
 * missing answer (null) casts no vote. The plurality answer is the pseudo-label, and its share of the
 * parseable votes is the `majorityRatio` (docs/METHOD.md). Co-RL divides by the parseable count
 * (DrStranded/Co-RL llm/trainers/co_rl/co_label_utils.py `_majority_vote`); TTRL divides by all G
 * outputs (PRIME-RL/TTRL verl/verl/trainer/ppo/ttrl_utils.py). We follow docs/METHOD.md and Co-RL.
 *
 * Both reference implementations break ties by `Counter.most_common` (first answer seen wins),
 * which depends on sample order. We break them by a seeded draw over the tied answers sorted
 * lexicographically, so a tie is reproducible and not biased toward early samples.
 */
import type { Rng } from '../random';

/** An extracted answer; null = malformed or missing (casts no vote). */
export type Answer = string | null;

export interface PluralityVote {
  /** The pseudo-label, or null when the prompt is unlabeled (no parseable vote, ratio < tau, or a discarded tie). */
  label: string | null;
  /** Votes for the plurality answer (for a tie: the tied count). */
  count: number;
  /** Number of parseable (non-null) answers. */
  parseable: number;
  /** count / parseable; 0 when nothing parsed. */
  majorityRatio: number;
  /** More than one answer shared the top count. */
  tied: boolean;
}

/** Votes per answer, null answers skipped. Map iteration order is first-seen order. */
export function voteCounts(answers: readonly Answer[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const a of answers) {
    if (a === null) continue;
    counts.set(a, (counts.get(a) ?? 0) + 1);
  }
  return counts;
}

/**
 * The plurality answer of one prompt's votes.
 *
 * rng: breaks a tie by `rng.int` over the tied answers in lexicographic (UTF-16 code unit) order;
 *   it is drawn from only when there is a tie. Pass null to discard ties instead (the prompt is then
 *   unlabeled): the `cohort` scheme's rule.
 * tau: if majorityRatio < tau the prompt is unlabeled (label null). tau = 0 accepts any plurality.
 */
export function pluralityVote(answers: readonly Answer[], rng: Rng | null, tau = 0): PluralityVote {
  const counts = voteCounts(answers);
  let parseable = 0;
  let count = 0;
  for (const c of counts.values()) {
    parseable += c;
    if (c > count) count = c;
  }
  if (parseable === 0) return { label: null, count: 0, parseable: 0, majorityRatio: 0, tied: false };

  const top: string[] = [];
  for (const [a, c] of counts) if (c === count) top.push(a);
  const tied = top.length > 1;
  const majorityRatio = count / parseable;

  let label: string | null;
  if (!tied) label = top[0];
  else if (rng === null) label = null;
  else {
    top.sort(); // default sort compares UTF-16 code units: locale-independent, deterministic
    label = top[rng.int(top.length)];
  }
  if (majorityRatio < tau) label = null;
  return { label, count, parseable, majorityRatio, tied };
}

/** Checks that a prompt-major answer array splits into B equal groups; returns the group size. */
export function groupSize(answers: readonly Answer[], B: number, what = 'answers'): number {
  if (!Number.isInteger(B) || B < 1) throw new RangeError(`B must be a positive integer, got ${B}`);
  if (answers.length % B !== 0 || answers.length === 0) {
    throw new RangeError(`${what}: length ${answers.length} is not a positive multiple of B = ${B}`);
  }
  return answers.length / B;
}

/**
 * Plurality votes for B prompts from prompt-major answers (B * G' of them).
 *
 * Prompt b's tie is broken with the stream `rng.child('prompt' + b)`: streams are derived by hashing
 * their path (random.ts), so the label of a prompt depends only on (rng's path, b, its answers),
 * not on how many other prompts tied. The same ballots with the same rng give the same labels
 * wherever they are counted (a model's own reward, its partner's peer reward, the metrics).
 * rng null discards ties (see pluralityVote).
 */
export function pluralityVotes(answers: readonly Answer[], B: number, rng: Rng | null, tau = 0): PluralityVote[] {
  const g = groupSize(answers, B);
  const out: PluralityVote[] = [];
  for (let b = 0; b < B; b++) {
    const group = answers.slice(b * g, (b + 1) * g);
    out.push(pluralityVote(group, rng === null ? null : rng.child(`prompt${b}`), tau));
  }
  return out;
}

/**
 * Pools several voters' prompt-major answers prompt by prompt: prompt b's block is voter 0's answers
 * for b, then voter 1's, and so on. Voters may have different numbers of samples per prompt.
 */
export function poolBallots(answerSets: readonly (readonly Answer[])[], B: number): Answer[] {
  if (answerSets.length === 0) throw new RangeError('poolBallots needs at least one voter');
  const sizes = answerSets.map((s, i) => groupSize(s, B, `voter ${i}`));
  const pooled: Answer[] = [];
  for (let b = 0; b < B; b++) {
    answerSets.forEach((s, i) => {
      for (let j = 0; j < sizes[i]; j++) pooled.push(s[b * sizes[i] + j]);
    });
  }
  return pooled;
}
