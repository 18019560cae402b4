/**
 * The verdict on a question over a block of seeds: what self-reward, a peer's vote and the true
 * answers did to held-out pass@1, each read by the lab's rule (docs/METHOD.md, "Statistics": a
 * paired difference per seed, its 95% Student-t interval over seeds, shown / not shown /
 * contradicted, and Holm's correction over the claims read together). The page reads it after
 * "Run N seeds" and after an own task's block of seeds; the numbers are the science's
 * (claims.ts armPassAt1: arm means over members, base evaluation to last evaluation) and the
 * statistics its own (metrics/paired.ts), so the page and `npm run science` cannot disagree.
 *
 *   truth         the oracle arm learns: oracle end − oracle start (science claim "truth")
 *   self          self-reward's change: self end − self start (claim a, signed as a change)
 *   peer          a peer's vote's change: peer end − peer start (claim "learns")
 *   peerOverSelf  peer end − self end (claim b)
 *
 * "Cannot tell" is an answer: where the oracle arm, rewarded with the true answers, did not learn
 * (its Holm verdict is not "shown"), nothing shows that the question can be learnt by these
 * members in these steps, so no sentence says what self-reward or a peer did: a fall of self
 * could be noise around a model that never knew the task, a level peer the same. The verdict
 * says so, with what was measured and what would help.
 */
import { holmVerdicts, paired, type Paired, type Verdict } from '../metrics/paired';
import { MEANINGFUL, checkTaskDefinition, heldOutHalfWidth } from '../tasks/custom/check';
import { armPassAt1 } from './claims';
import type { RunSummary } from './events';
import type { ExperimentSpec } from './spec';

/**
 * Seeds in an own task's block. Four is the fewest at which the rule can say much: at n = 4 the
 * interval is the mean ± 3.18 standard errors (t with 3 degrees of freedom; at 2 seeds it is
 * ±12.7), so a per-seed spread of 0.05 gives ±0.08, and the gallery's measured differences
 * (docs/RESULTS.md, "The gallery, measured": 0.05 to 0.5) can be told from 0. Four of the default
 * experiment's runs fit the page's 3-minute budget on a 2-core machine (docs/TASKS.md).
 */
export const VERDICT_SEEDS = 4;

export type VerdictPartId = 'truth' | 'self' | 'peer' | 'peerOverSelf';

export interface VerdictPart {
  id: VerdictPartId;
  /** The per-seed difference, in words: "oracle end − oracle start". */
  measure: string;
  stats: Paired;
  /** The Holm verdict within the block's family (what a sentence says: docs/METHOD.md, "What a sentence may say"). */
  verdict: Verdict;
}

export interface HeldOutWidth {
  /** Held-out problems per seed. */
  problems: number;
  /** ± points of a 95% interval of one evaluation (check.ts heldOutHalfWidth). */
  points: number;
  /** Problems (a data task: rows) the task would need for MEANINGFUL.heldOut held-out problems, with the split's proportions. */
  needed: number;
  /** Whether `needed` counts rows of a data file (else problems of a generator). */
  rows: boolean;
  /** The task has that many problems already: only the experiment's held-out size is small. */
  available: boolean;
}

export interface QuestionVerdict {
  /** The question, as a student named it (the task's title, or the built-in task's id). */
  question: string;
  /** The seeds the verdict is over, in order. */
  seeds: number[];
  /** The parts whose arms every run has, in the order above. */
  parts: VerdictPart[];
  /** The oracle arm learnt (truth shown): self and peer may be spoken of. */
  canTell: boolean;
  /** Why it cannot tell, in one clause (null when it can). */
  why: string | null;
  /** What would help, measured where it can be (null when it can tell and nothing is too small). */
  help: string[];
  /** Set when the held-out set is smaller than MEANINGFUL.heldOut. */
  heldOut: HeldOutWidth | null;
}

const DEFS: readonly { id: VerdictPartId; arms: readonly string[]; measure: string; d: (p: (arm: string) => { start: number; end: number }) => number }[] = [
  { id: 'truth', arms: ['oracle'], measure: 'oracle end − oracle start', d: (p) => p('oracle').end - p('oracle').start },
  { id: 'self', arms: ['self'], measure: 'self end − self start', d: (p) => p('self').end - p('self').start },
  { id: 'peer', arms: ['peer'], measure: 'peer end − peer start', d: (p) => p('peer').end - p('peer').start },
  { id: 'peerOverSelf', arms: ['peer', 'self'], measure: 'peer end − self end', d: (p) => p('peer').end - p('self').end },
];

/** The question's name: a custom task's title, else the built-in task's id. */
export function questionName(spec: ExperimentSpec): string {
  return spec.task.definition?.title ?? spec.task.id;
}

/** How wide one evaluation is when the held-out set is small, and what size would do (null: 100 or more). */
export function heldOutWidth(spec: ExperimentSpec): HeldOutWidth | null {
  const { labeledPool, rlPool, heldOut } = spec.data;
  if (heldOut >= MEANINGFUL.heldOut) return null;
  const total = labeledPool + rlPool + heldOut;
  const needed = Math.ceil((total * MEANINGFUL.heldOut) / heldOut / 10) * 10;
  const def = spec.task.definition;
  const has = def ? (checkTaskDefinition(def).task?.problemCount(1) ?? 0) : Infinity;
  return { problems: heldOut, points: heldOutHalfWidth(heldOut), needed, rows: def?.kind === 'data', available: has >= total - heldOut + MEANINGFUL.heldOut };
}

/** "only 6 held-out problems: one evaluation is ±40 points wide; 100 (±10 points) need about 540 rows". */
export function heldOutWords(w: HeldOutWidth): string {
  const hundred = `${MEANINGFUL.heldOut} held-out problems (±${heldOutHalfWidth(MEANINGFUL.heldOut)} points)`;
  const would = w.available
    ? `the task has enough problems for ${hundred}: set the held-out size to ${MEANINGFUL.heldOut} (Data and warm start)`
    : `${hundred} need about ${w.needed} ${w.rows ? 'rows' : 'distinct problems: wider ranges make more'}`;
  return `only ${w.problems} held-out problems: one evaluation of them is ±${w.points} points wide (95%); ${would}`;
}

const signed = (x: number) => (Number.isFinite(x) ? `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '-');

/** "+0.19 [+0.13, +0.25]": the mean difference and its 95% interval. */
export const intervalText = (p: Paired): string => `${signed(p.mean)} [${signed(p.lo)}, ${signed(p.hi)}]`;

/**
 * The verdict of `runs` (finished seeds of one experiment, `spec` any of them), with `causes`:
 * what the lab measured when it stopped a seed before RL or judged the task (a warm start's miss
 * in words, the learnability check's cause), quoted first among what would help.
 */
export function questionVerdict(spec: ExperimentSpec, runs: readonly RunSummary[], causes: readonly string[] = []): QuestionVerdict {
  const present = (arm: string) => runs.length > 0 && runs.every((r) => r.arms.some((a) => a.id === arm && a.members.length > 0));
  const defs = DEFS.filter((d) => d.arms.every(present));
  const stats = defs.map((d) => paired(runs.map((r) => d.d((arm) => armPassAt1(r, arm) ?? { start: NaN, end: NaN }))));
  const holm = holmVerdicts(stats);
  const parts = defs.map((d, i) => ({ id: d.id, measure: d.measure, stats: stats[i], verdict: holm[i].verdict }));
  const truth = parts.find((p) => p.id === 'truth');
  const width = heldOutWidth(spec);
  const n = runs.length;
  let why: string | null = null;
  if (n < 2 && causes.length) why = `${n === 0 ? 'no seed' : 'only one seed'} of the block ran to its end`;
  else if (n < 2) why = n === 1 ? 'one seed is an example, not evidence: a verdict needs two seeds or more' : 'no seed has finished';
  else if (!truth) why = 'the experiment has no oracle arm, so nothing shows that these models can learn the question';
  else if (truth.verdict !== 'shown') {
    const o = oracleMeans(runs);
    const alone = truth.stats.verdict;
    const reading =
      truth.verdict === 'contradicted' ? 'a fall' : alone === 'shown' ? 'a gain alone, not with Holm' : alone === 'contradicted' ? 'a fall alone, not with Holm' : 'no gain beyond its noise';
    why =
      `the oracle arm, rewarded with the true answers, did not learn it: its held-out pass@1 went from ${o.start.toFixed(2)} to ${o.end.toFixed(2)} ` +
      `(change ${intervalText(truth.stats)}: ${reading})`;
  }
  const help = [...causes];
  if (width) help.push(heldOutWords(width));
  if (why && truth && n >= 2 && help.length === 0) {
    help.push(`members that learn the task in their warm start, more RL steps than ${spec.steps}, or more seeds than ${n}`);
  }
  return { question: questionName(spec), seeds: runs.map((r) => r.seed), parts, canTell: why === null, why, help, heldOut: width };
}

/** The oracle arm's held-out pass@1 at the start and the end, means over the seeds. */
function oracleMeans(runs: readonly RunSummary[]): { start: number; end: number } {
  const ps = runs.map((r) => armPassAt1(r, 'oracle')!);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return { start: mean(ps.map((p) => p.start)), end: mean(ps.map((p) => p.end)) };
}

/** "seeds 1-4" or "seeds 1, 3, 8". */
export function seedsText(seeds: readonly number[]): string {
  if (seeds.length === 1) return `seed ${seeds[0]}`;
  const run = seeds.every((s, i) => i === 0 || s === seeds[i - 1] + 1);
  return `seeds ${run ? `${seeds[0]}-${seeds.at(-1)}` : seeds.join(', ')}`;
}

const CHANGE: Record<Verdict, string> = { shown: 'rose', contradicted: 'fell', 'not shown': 'showed no change beyond its noise' };

/**
 * One part in words, from its Holm verdict: "with self-reward held-out accuracy fell (−0.19 [−0.22,
 * −0.15])". Where the difference alone reads otherwise (its interval clears 0 but Holm's bar is
 * not passed), both are said (docs/METHOD.md, "What a sentence may say"): "... showed no change
 * beyond its noise, though alone it fell, not with Holm (−0.07 [−0.14, −0.01])".
 */
export function partWords(p: VerdictPart): string {
  const alone = p.stats.verdict !== p.verdict ? `, though alone it ${CHANGE[p.stats.verdict]}, not with Holm` : '';
  const i = `${alone} (${intervalText(p.stats)})`;
  switch (p.id) {
    case 'truth':
      return `the oracle, rewarded with the true answers, ${CHANGE[p.verdict]}${i}`;
    case 'self':
      return `with self-reward held-out accuracy ${CHANGE[p.verdict]}${i}`;
    case 'peer':
      return `with a peer's vote it ${CHANGE[p.verdict]}${i}`;
    case 'peerOverSelf': {
      const ended = p.stats.verdict !== p.verdict ? `, though alone it ended ${p.stats.verdict === 'shown' ? 'above' : 'below'}, not with Holm (${intervalText(p.stats)})` : ` (${intervalText(p.stats)})`;
      return p.verdict === 'shown'
        ? `the peer arm ended above the self arm${ended}`
        : p.verdict === 'contradicted'
          ? `the peer arm ended below the self arm${ended}`
          : `peer against self is not shown${ended}`;
    }
  }
}

/**
 * The sentence a student can pass on: what happened to self, to peer and to the oracle on this
 * question, over how many seeds, or that the lab cannot tell and why. Numbers are held-out
 * pass@1's mean change over the seeds with its 95% interval.
 */
export function friendSentence(v: QuestionVerdict): string {
  const over = v.seeds.length ? `On "${v.question}", over ${v.seeds.length} seed${v.seeds.length === 1 ? '' : 's'} (${seedsText(v.seeds)})` : `On "${v.question}"`;
  if (!v.canTell) {
    const help = v.help.length ? ` What would help: ${v.help.map((h) => h.replace(/\.$/, '')).join('; ')}.` : '';
    return `${over}, the lab cannot tell whether self-reward collapses or a peer helps: ${v.why}.${help}`;
  }
  const order: VerdictPartId[] = ['self', 'peer', 'peerOverSelf', 'truth'];
  const words = order.map((id) => v.parts.find((p) => p.id === id)).filter((p): p is VerdictPart => p != null).map(partWords);
  const last = words.pop()!;
  const width = v.heldOut ? ` Held-out problems were few: ${heldOutWords(v.heldOut)}.` : '';
  return `${over}: ${words.join('; ')}; and ${last}.${width}`;
}
