/**
 * The workshop: a presenter's sequence of presets, each with a question the audience answers
 * before the run ("predict first"), and a talking point that says only what was measured over
 * the preset's seeds (docs/RESULTS.md; `seedCount`), what did not reproduce included. Pure data and pure readings of a
 * run (no React, no store): the UI is WorkshopPanel.tsx.
 *
 * Every step's question is about one signed number a run can measure (Quantity): a change of
 * held-out pass@1, or a difference of two. Its three answers are read off that number the same
 * way for the live run and for the 8-seed mean quoted in `measured`: up, level (within
 * LEVEL_BAND either way) or down.
 */
import type { RunSummary } from '../../core/experiment/events';
import { presetRuntime } from '../controls/presetRuntimes';

// The page's one rule for rise / hold / fall (src/app/run/changeRule.ts), kept importable from here.
import { type Direction, LEVEL_BAND, directionOf } from '../run/changeRule';
export { type Direction, LEVEL_BAND, directionOf };

export type Quantity =
  /** Held-out pass@1 of an arm at its last evaluation minus before RL, mean over its members (or one member). */
  | { kind: 'change'; arm: string; member?: string }
  /** One member's change of held-out pass@1 in `arm` minus its change in `than`. */
  | { kind: 'gainDifference'; member: string; arm: string; than: string }
  /** The pair of `arm` pooled into one majority vote (maj@G) minus the pair of `than`, at the last evaluation. */
  | { kind: 'pooledDifference'; arm: string; than: string };

export interface WorkshopStep {
  presetId: string;
  title: string;
  /** What is on screen: the models, the arms, how long it takes. */
  setup: string;
  /** What the audience predicts, before Start. */
  question: string;
  /** The answers, for a quantity that comes out up, level and down. */
  answers: Record<Direction, string>;
  quantity: Quantity;
  /**
   * The same quantity measured over the preset's fresh seeds, the block its headline verdict reads
   * (mean of the per-seed values, docs/RESULTS.md): the value of `numbers`' fresh column, never a
   * tuning-seed value beside a fresh-seed headline.
   */
  measured: number;
  /**
   * What the seeds showed and what did not reproduce, in at most about 40 words (a projector
   * cannot carry 120 words of numbers). Shown after the prediction, above `numbers`.
   */
  talkingPoint: string;
  /** The seeds each column of `numbers` rests on: the tuning seeds, and the seeds run after the settings were frozen. */
  seeds: { tuning: string; fresh: string };
  /** The numbers behind the talking point, one measure a row (docs/RESULTS.md's figures). */
  numbers: readonly MeasuredRow[];
}

/**
 * One measure of a step's table: on the tuning seeds and on the fresh seeds (null: not measured
 * there). Changes are end − start, a fall negative, as everywhere on the page; docs/RESULTS.md
 * prints claim (a) as start − end, so its rows say `negatedInResults` (the test reads them so).
 */
export interface MeasuredRow {
  what: string;
  tuning: string | null;
  fresh: string | null;
  negatedInResults?: boolean;
}

/** A preset's measured time from its link as the preset card says it (presetRuntimes.ts), or nothing where none was measured. */
function linkTime(presetId: string): string {
  const r = presetRuntime(presetId);
  return r ? ` It takes ${r.range} from its link on ${r.machine}.` : '';
}

export const WORKSHOP: readonly WorkshopStep[] = [
  {
    presetId: 'collapse',
    title: 'Self-reward collapses',
    setup:
      'Two small models (MLPs) of equal strength, each right on about 44% of held-out sums of three digits, ' +
      'train from the same weights in three arms: on the true answers (oracle), on their own majority vote ' +
      "(self) and on their partner's majority vote (peer). No labels in the self and peer arms; 80 RL steps.",
    question: 'The self arm pays each model for agreeing with its own majority vote. Over the run, its held-out accuracy will…',
    answers: { up: 'rise', level: 'hold (within 0.03)', down: 'fall' },
    quantity: { kind: 'change', arm: 'self' },
    // Claim (a) on the fresh seeds 101-108: self start − self end +0.15.
    measured: -0.15,
    talkingPoint:
      'The self arm is paid for agreeing with its own majority vote, wrong exactly where the model is: reward ' +
      'climbs, held-out pass@1 falls. The peer arm only holds its start. Not reproduced: the early gain TTRL and SRT report.',
    seeds: { tuning: '1-8', fresh: '101-108' },
    numbers: [
      { what: 'self: reward, start → end', tuning: '0.53 → 0.81', fresh: null },
      { what: 'self: held-out pass@1, start → end', tuning: '0.44 → 0.26', fresh: null },
      { what: "self's change (end − start)", tuning: '−0.17, fell in all 8', fresh: '−0.15 [−0.19, −0.11], fell in all 8', negatedInResults: true },
      { what: "self's change at the first evaluation", tuning: '−0.02', fresh: null },
      { what: 'peer − self at the end', tuning: '+0.16', fresh: '+0.13, above in all 8' },
      { what: "peer's change", tuning: '−0.01', fresh: '−0.02: no gain shown' },
      { what: "oracle's change", tuning: '+0.14', fresh: null },
    ],
  },
  {
    presetId: 'peers-learn',
    title: 'Peers that learn',
    setup:
      'The same pair a little stronger at the start (about half of held-out sums right per sample), trained ' +
      'harder and longer: 120 RL steps on the true answers (oracle), on their own votes (self) and on their ' +
      "partner's votes (peer)." + linkTime('peers-learn'),
    question: "The peer arm pays each model for agreeing with its partner's majority vote. Its held-out accuracy will…",
    answers: { up: 'rise', level: 'hold (within 0.03)', down: 'fall' },
    quantity: { kind: 'change', arm: 'peer' },
    // Claim (learns) on peers-learn, confirmation seeds 109-116: peer end − peer start +0.16.
    measured: 0.16,
    talkingPoint:
      "The peer arm learns, and its partner's votes grow more accurate with it: Co-RL's virtuous cycle. Of 15 " +
      'settings searched, the first that passed on the tuning seeds failed on fresh ones; these numbers are from untuned seeds.',
    seeds: { tuning: '1-8', fresh: '109-116' },
    numbers: [
      { what: "peer's change (end − start)", tuning: null, fresh: '+0.16 [+0.09, +0.24], rose in all 8' },
      { what: "accuracy of the partner's votes, change", tuning: null, fresh: '+0.11' },
      { what: "self's change", tuning: null, fresh: '−0.15', negatedInResults: true },
      { what: 'oracle − peer at the end', tuning: null, fresh: '+0.15' },
    ],
  },
  {
    presetId: 'ensemble-control',
    title: 'The compute-matched control',
    setup:
      'The same pair in two arms only, self and peer. At every evaluation the lab pools each arm\'s two models ' +
      'into one majority vote (the dotted ensemble lines of the maj@G chart); the thin dashed line is the same ' +
      'pair pooled before training.',
    question: 'Is a peer pair more than two models trained apart? Pooled into one vote, the peer pair will end, against the two self-trained models…',
    answers: { up: 'above', level: 'level (within 0.03)', down: 'below' },
    quantity: { kind: 'pooledDifference', arm: 'peer', than: 'self' },
    // Claim (d) on collapse, fresh seeds 101-108: peer pooled − self pooled +0.28.
    measured: 0.28,
    talkingPoint:
      'A collapsed model votes for a few answers and outvotes its partner, so two self-trained models pool poorly. ' +
      'Both trained pairs pool below the pair untrained: the peer reward avoided a collapse; it did not ' +
      'make the pair reason better.',
    seeds: { tuning: '1-8', fresh: '101-108' },
    numbers: [
      { what: 'peer pair pooled − self pair pooled', tuning: '+0.33, above in 7 of 8', fresh: '+0.28 [+0.15, +0.40], above in all 8' },
      { what: 'peer pair pooled: trained against untrained', tuning: '0.56 against 0.80', fresh: null },
    ],
  },
  {
    presetId: 'peers-teach',
    title: 'Does a peer teach?',
    setup:
      'Two small transformers, each right on about 45% of held-out sums, train four ways from the same weights: ' +
      'oracle, self, peer, and A alone on the votes of a frozen copy of B (teacher).' + linkTime('peers-teach'),
    question: "The peer arm pays each transformer for agreeing with the other's majority vote. Its held-out accuracy will…",
    answers: { up: 'rise', level: 'hold (within 0.03)', down: 'fall' },
    quantity: { kind: 'change', arm: 'peer' },
    // Claim (learns) on peers-teach, fresh seeds 101-108: peer end − peer start +0.07.
    measured: 0.07,
    talkingPoint:
      "A small effect at most: read with the preset's other claims (Holm), the fresh seeds do not show it; a peer " +
      'teaches a little, if at all. Not reproduced: co-evolution (A learns as much from a frozen copy of B).',
    seeds: { tuning: '1-8', fresh: '101-108' },
    numbers: [
      { what: "peer's change (end − start)", tuning: '+0.05 [+0.01, +0.10], rose in 6 of 8', fresh: "+0.07 [+0.01, +0.13], rose in 6 of 8; not shown with Holm" },
      { what: "peer's change on 4 seeds run after the settings were fixed", tuning: '+0.05, inside its noise', fresh: null },
      { what: "self's change", tuning: '−0.06', fresh: null },
      { what: "oracle's change", tuning: '+0.16', fresh: null },
      { what: 'A taught by a frozen B − A taught by B as it learns', tuning: '−0.01', fresh: null },
      { what: 'peer pair pooled: trained − untrained', tuning: '−0.07', fresh: null },
    ],
  },
  {
    presetId: 'families',
    title: 'A different partner',
    setup:
      'One transformer A with three partners, each in its own peer arm: T, a transformer of the same size; S, ' +
      'a wider transformer; M, a small MLP, another model family. All four start equally strong; panel 2 shows ' +
      'how much each pair overlaps in its errors (kappa) before training.' + linkTime('families'),
    question: 'Co-RL reports that a more different partner teaches more. Next to the MLP, compared with next to the same-size transformer, A will gain…',
    answers: { up: 'more', level: 'about the same (within 0.03)', down: 'less' },
    quantity: { kind: 'gainDifference', member: 'A', arm: 'peer-mlp', than: 'peer-same' },
    // Claim (c) on families, fresh seeds 101-108: A's own gain next to M − next to T, +0.01.
    measured: 0.01,
    talkingPoint:
      'A gained about as much next to each partner. Independently seeded members hardly share errors, whatever ' +
      "their family, so difference had nothing to act on. Not reproduced: Co-RL's cross-family advantage, measured " +
      'there on pretrained checkpoints that share their data.',
    seeds: { tuning: '1-3, 5-9', fresh: '101-108' },
    numbers: [
      { what: "A's gain next to the same-size transformer", tuning: '+0.07', fresh: null },
      { what: "A's gain next to the MLP", tuning: '+0.07', fresh: null },
      { what: "A's gain next to the wider transformer", tuning: '+0.05, inside its noise', fresh: null },
      { what: "A's gain next to the MLP − next to the same-size transformer", tuning: '+0.01, not shown', fresh: '+0.01 [−0.06, +0.08], not shown' },
      { what: 'errors shared before training (kappa), each pair', tuning: '0.01-0.06', fresh: null },
      { what: "errors shared, the wider transformer's pair (the weakest teacher)", tuning: '0.18 against 0.08-0.10', fresh: null },
    ],
  },
  {
    presetId: 'overlap',
    title: 'How different should your study partner be?',
    setup:
      'One small MLP A learns in one peer arm per partner, from least to most overlapping in its errors: S (its ' +
      "own seeds), B0, B50, B80 (A's weights blended in) and T (A's twin), plus X, another shape. 120 RL steps." +
      linkTime('overlap'),
    question: 'How different should your study partner be? Next to its sibling S, compared with next to its twin T, A will gain…',
    answers: { up: 'more', level: 'about the same (within 0.03)', down: 'less' },
    quantity: { kind: 'gainDifference', member: 'A', arm: 'peer-S', than: 'peer-T' },
    // P2 on overlap, confirmation seeds 201-212: A's gain next to S − next to T, +0.15 (Holm-shown).
    measured: 0.15,
    talkingPoint:
      'A more different partner taught more: A gained more next to its sibling than next to its twin, because the ' +
      "sibling's votes were right where A's were wrong. A graded curve across all five levels is not shown.",
    seeds: { tuning: '1-4', fresh: '201-212' },
    numbers: [
      { what: "A's gain next to S (least overlap)", tuning: null, fresh: '+0.09' },
      { what: "A's gain next to T (A's twin, most overlap)", tuning: null, fresh: '−0.06' },
      { what: 'next to S − next to T', tuning: '+0.23, not shown', fresh: '+0.15 [+0.05, +0.25], 10 of 12 seeds; shown with Holm' },
      { what: 'gain lost per +1 kappa (the slope, five levels)', tuning: '+0.39, not shown', fresh: '+0.27 [−0.03, +0.56]; not shown' },
      { what: "S's label right where A's vote was wrong, S − T", tuning: null, fresh: '+0.17 [+0.10, +0.25], 12 of 12; shown with Holm' },
      { what: "pair's kappa, base → step 120", tuning: null, fresh: '0.13-0.40 → 0.72-0.92' },
    ],
  },
  {
    presetId: 'length',
    title: 'When answers can change length',
    setup:
      'The collapse pair again, warm-started on a mix of answers with the running-sum scratchpad (six tokens, ' +
      'more often right) and bare guesses (two tokens), so the length of an answer can change. They start ' +
      'weaker than in the collapse preset: about 31% right.',
    question: 'The self arm again, paid for agreeing with its own majority vote. Here its held-out accuracy will…',
    answers: { up: 'rise', level: 'hold (within 0.03)', down: 'fall' },
    quantity: { kind: 'change', arm: 'self' },
    // Claim (a) on length, fresh seeds 101-108, contradicted: self start − self end −0.18.
    measured: 0.18,
    talkingPoint:
      'Here self-reward does not collapse within 80 steps: it gains early and ends higher, and no arm shortens its ' +
      'answers (all move towards the scratchpad). So the collapse depends on the setting; why this one learns is not settled.',
    seeds: { tuning: '1-8', fresh: '101-108' },
    numbers: [
      { what: "self's change at the first evaluation", tuning: '+0.05', fresh: null },
      { what: "self's change (end − start)", tuning: '+0.15', fresh: '+0.18, rose in all 8', negatedInResults: true },
      { what: "peer's change", tuning: '+0.23', fresh: '+0.24' },
      { what: "accuracy of the partner's votes, change", tuning: '+0.27', fresh: null },
      { what: "oracle's change", tuning: '+0.35', fresh: null },
      { what: 'peer − self at the end', tuning: null, fresh: "+0.06: shown alone, not with Holm" },
      { what: 'a 200-step pilot (4 seeds)', tuning: 'self rose, then slid a little; one peer pair colluded on short wrong answers', fresh: null },
    ],
  },
];

/** How many seeds a block of `seeds` names: '1-8' -> 8, '1-3, 5-9' -> 8, '201-212' -> 12. */
export function seedCount(block: string): number {
  return block.split(',').reduce((n, part) => {
    const [a, b] = part.trim().split('-').map(Number);
    return n + (b === undefined ? 1 : b - a + 1);
  }, 0);
}

/** "8 seeds", "12 seeds": the seeds behind a step's headline figures (its fresh block, else its tuning block). */
export function seedsMeasured(step: Pick<WorkshopStep, 'seeds'>): string {
  return `${seedCount(step.seeds.fresh || step.seeds.tuning)} seeds`;
}

export type Reading =
  /** What this run measured, with the numbers behind it in words. */
  | { ok: true; value: number; direction: Direction; detail: string }
  /** Why this run does not answer the question (yet). */
  | { ok: false; why: string };

/** A signed number as the docs print it: +0.05, −0.17, 0.00. */
export function signed(v: number): string {
  const s = Math.abs(v).toFixed(2);
  if (s === '0.00') return '0.00';
  return v > 0 ? `+${s}` : `−${s}`;
}

function armOf(summary: RunSummary, armId: string) {
  return summary.arms.find((a) => a.id === armId);
}

/** A member's held-out pass@1 before RL and at its arm's last evaluation, or why not. */
function memberChange(summary: RunSummary, armId: string, memberId: string): { start: number; end: number } | string {
  const arm = armOf(summary, armId);
  if (!arm) return `this run has no ${armId} arm`;
  const member = arm.members.find((m) => m.id === memberId);
  if (!member) return `the ${armId} arm has no member ${memberId}`;
  const base = summary.base.find((b) => b.memberId === memberId);
  if (!base) return 'the run has not evaluated its members yet';
  const evals = member.history.filter((h) => h.evalPassAt1 !== undefined);
  const last = evals[evals.length - 1];
  if (!last || last.evalPassAt1 === undefined) return 'no evaluation after training has started yet';
  return { start: base.passAt1, end: last.evalPassAt1 };
}

function armChange(summary: RunSummary, armId: string, memberIds: readonly string[]): { start: number; end: number } | string {
  let start = 0;
  let end = 0;
  for (const id of memberIds) {
    const c = memberChange(summary, armId, id);
    if (typeof c === 'string') return c;
    start += c.start / memberIds.length;
    end += c.end / memberIds.length;
  }
  return { start, end };
}

function lastPooled(summary: RunSummary, armId: string): number | string {
  const arm = armOf(summary, armId);
  if (!arm) return `this run has no ${armId} arm`;
  const last = arm.ensemble[arm.ensemble.length - 1];
  return last ? last.majAtG : 'no pooled evaluation yet';
}

function reading(value: number, detail: string): Reading {
  return { ok: true, value, direction: directionOf(value), detail };
}

/** What a run (live or finished) says about a step's quantity. */
export function readRun(quantity: Quantity, summary: RunSummary | null): Reading {
  if (!summary) return { ok: false, why: 'no run yet' };
  switch (quantity.kind) {
    case 'change': {
      const arm = armOf(summary, quantity.arm);
      if (!arm) return { ok: false, why: `this run has no ${quantity.arm} arm` };
      const ids = quantity.member ? [quantity.member] : arm.members.map((m) => m.id);
      if (ids.length === 0) return { ok: false, why: 'the run has not evaluated its members yet' };
      const c = armChange(summary, quantity.arm, ids);
      if (typeof c === 'string') return { ok: false, why: c };
      const whose = quantity.member ? `${quantity.member}'s held-out pass@1 in the ${quantity.arm} arm` : `the ${quantity.arm} arm's held-out pass@1`;
      return reading(c.end - c.start, `${whose} ${c.start.toFixed(2)} → ${c.end.toFixed(2)} (${signed(c.end - c.start)})`);
    }
    case 'gainDifference': {
      const a = armChange(summary, quantity.arm, [quantity.member]);
      if (typeof a === 'string') return { ok: false, why: a };
      const b = armChange(summary, quantity.than, [quantity.member]);
      if (typeof b === 'string') return { ok: false, why: b };
      const ga = a.end - a.start;
      const gb = b.end - b.start;
      return reading(ga - gb, `${quantity.member} gained ${signed(ga)} in ${quantity.arm} and ${signed(gb)} in ${quantity.than} (difference ${signed(ga - gb)})`);
    }
    case 'pooledDifference': {
      const a = lastPooled(summary, quantity.arm);
      if (typeof a === 'string') return { ok: false, why: a };
      const b = lastPooled(summary, quantity.than);
      if (typeof b === 'string') return { ok: false, why: b };
      return reading(a - b, `pooled maj@G: the ${quantity.arm} pair ${a.toFixed(2)}, the ${quantity.than} pair ${b.toFixed(2)} (${signed(a - b)})`);
    }
  }
}
