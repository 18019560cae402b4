/**
 * Named experiments. Each preset is a partial spec layered over `BASE` (Sequence Toy's layered
 * configs), with a title and a paragraph for students. Numbers here are tuned by measurement:
 * docs/RESULTS.md gives the runs behind them and the command that reproduces each.
 *
 * The regime (docs/RESULTS.md, "Finding the regime"): sum of 3 digits mod 10 with the running-sum
 * scratchpad; windowed-MLP members (window 6 covers the digit each scratchpad step needs), warm
 * started on 500 labeled problems (batch 64, lr 5e-3) for 60-75 steps, which stops them in the
 * middle of their generalisation jump: held-out pass@1 ~0.2-0.75 and maj@8 well above pass@1.
 * The transformer and the GRU did not get above chance within a CPU-sized warm-start budget here,
 * so the science presets use MLP members of different seeds, data and shapes.
 */
import type { ExperimentSpec, ExperimentSpecInput, MemberSpec } from './spec';
import { ExperimentSpecSchema, SPEC_VERSION } from './spec';

export interface Preset {
  id: string;
  title: string;
  /** One paragraph for students: what to look for. */
  explanation: string;
  /** Measured wall time of the whole run (warm start included), per backend, where measured. */
  runtime: string;
  spec: ExperimentSpec;
}

type MemberInput = Partial<MemberSpec> & Pick<MemberSpec, 'id' | 'family'>;

const SIZES: Record<MemberSpec['family'], Pick<MemberSpec, 'dModel' | 'layers' | 'heads' | 'window'>> = {
  transformer: { dModel: 32, layers: 2, heads: 2, window: 6 },
  gru: { dModel: 48, layers: 1, heads: 2, window: 6 },
  mlp: { dModel: 64, layers: 2, heads: 2, window: 6 },
};

/** A member with the family's default size; seeds default to distinct per id. */
export function member(m: MemberInput, seedOffset = 0): MemberSpec {
  const s = seedOffset + [...m.id].reduce((h, c) => h * 31 + c.charCodeAt(0), 7) % 1000;
  return {
    ...SIZES[m.family],
    warmStartSteps: 400,
    warmStartTarget: 0,
    warmStartExamples: 1000,
    initSeed: s,
    dataSeed: s,
    sampleSeed: s,
    ...m,
  };
}

const BASE: ExperimentSpecInput = {
  version: SPEC_VERSION,
  seed: 1,
  task: { id: 'digitsum', difficulty: 4, scratchpad: 'always' },
  data: { labeledPool: 2000, rlPool: 4000, heldOut: 200 },
  warmStart: { batchSize: 32, learningRate: 3e-3 },
  members: [],
  arms: [],
  grpo: {
    promptsPerStep: 16,
    groupSize: 8,
    temperature: 1,
    maxNewTokens: 0,
    learningRate: 3e-4,
    clipEps: 0.2,
    beta: 0,
    advantageScale: 'group',
    lossNormalisation: 'grpo',
    updatesPerBatch: 1,
    maxGradNorm: 1,
  },
  steps: 100,
  evalEvery: 10,
  collapseDelta: 0.1,
};

type Layer = Partial<Omit<ExperimentSpecInput, 'grpo' | 'task' | 'data' | 'warmStart'>> & {
  grpo?: Partial<ExperimentSpecInput['grpo']>;
  task?: Partial<ExperimentSpecInput['task']>;
  data?: Partial<ExperimentSpecInput['data']>;
  warmStart?: Partial<ExperimentSpecInput['warmStart']>;
};

/** BASE with `layer` on top (one level deep for the nested groups), validated. */
export function layered(layer: Layer, base: ExperimentSpecInput = BASE): ExperimentSpec {
  const merged = {
    ...base,
    ...layer,
    task: { ...base.task, ...layer.task },
    data: { ...base.data, ...layer.data },
    warmStart: { ...base.warmStart, ...layer.warmStart },
    grpo: { ...base.grpo, ...layer.grpo },
  };
  return ExperimentSpecSchema.parse(merged);
}

/** The pair presets' three arms over members A and B: the labels, their own vote, the partner's vote. */
function pairArms(): ExperimentSpecInput['arms'] {
  return [
    { id: 'oracle', scheme: 'oracle', members: ['A', 'B'] },
    { id: 'self', scheme: 'self', members: ['A', 'B'] },
    { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
  ];
}

// ---- the measured regime -----------------------------------------------------------------------

/**
 * Sum of 3 digits mod 10 with the scratchpad: all 1,000 problems, split 600 labeled (each member
 * trains on 500 and validates its warm-start target on the other 100) / 300 RL prompts / 100 held out.
 */
const REGIME: Layer = {
  task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
  data: { labeledPool: 600, rlPool: 300, heldOut: 100 },
  warmStart: { batchSize: 64, learningRate: 5e-3 },
  grpo: { promptsPerStep: 16, groupSize: 8, temperature: 1, learningRate: 4e-4, beta: 0 },
  evalEvery: 10,
};

/**
 * A windowed MLP (64 wide, 2 hidden layers, window 6) warm-started on 500 labels until it
 * reproduces the reference completions of its 100 validation problems with mean probability
 * `target` (at most 200 steps; it takes 55-110 depending on seeds and shape).
 */
function mlp(id: string, target: number, extra: Partial<MemberSpec> = {}): MemberSpec {
  return member({ id, family: 'mlp', dModel: 64, layers: 2, window: 6, warmStartSteps: 200, warmStartTarget: target, warmStartExamples: 500, ...extra });
}

/**
 * The warm-start target of every science member: held-out pass@1 lands at about 0.43 (maj@8 about
 * 0.62), where a model is wrong on most items it is unsure of. Self-reward then collapses and two
 * such peers hold (RESULTS.md: targets 0.35, 0.5 + 0.3 and 0.6 + 0.3 were measured too).
 */
const TARGET = 0.4;

const regime = (layer: Layer): ExperimentSpec =>
  layered({
    ...REGIME,
    ...layer,
    task: { ...REGIME.task, ...layer.task },
    data: { ...REGIME.data, ...layer.data },
    warmStart: { ...REGIME.warmStart, ...layer.warmStart },
    grpo: { ...REGIME.grpo, ...layer.grpo },
  });

// ---- presets -----------------------------------------------------------------------------------

const quick: Preset = {
  id: 'quick',
  title: 'Quick look',
  explanation:
    'The smallest run that still shows the moving parts: the collapse pair (two small MLPs ' +
    'warm-started on labeled sums of three digits until held-out accuracy is well above chance and ' +
    'majority vote above single samples), then six GRPO steps with oracle, self and peer rewards. Too short for learning or ' +
    'collapse to show; use it to see what every panel means, or on a slow machine.',
  runtime: '8 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  spec: regime({
    // labeled + RL + held-out = 964 (a UI test quotes the sum).
    data: { labeledPool: 600, rlPool: 300, heldOut: 64 },
    members: [mlp('A', TARGET), mlp('B', TARGET)],
    arms: pairArms(),
    grpo: { learningRate: 5e-4 },
    steps: 6,
    evalEvery: 3,
  }),
};

const collapse: Preset = {
  id: 'collapse',
  title: 'Self-reward collapses, peer reward holds',
  explanation:
    'Two small models of equal strength (warm-started until they get about 43% of held-out sums right ' +
    'per sample, 62% by majority vote) start from the same weights in three arms. The self arm rewards ' +
    'each model for agreeing with its own majority vote; the peer arm rewards it for agreeing with its ' +
    "partner's; the oracle arm uses the true answers. Watch the self arm: the reward climbs towards 1 " +
    'while held-out accuracy and entropy fall and a few answers take over. Each model is teaching ' +
    'itself its own mistakes (over seeds 1-8: pass@1 0.44 to 0.26 while the reward rises 0.53 to ' +
    '0.81; no early gain first is shown). With the peer reward the same models end well above the self ' +
    "arm, because the partner is wrong on other items (panel 2: it rescues about a quarter of a " +
    "member's wrong votes). But here the peer arm only holds its start (no gain is shown, on seeds 1-8 or 101-108), and " +
    "the pair's pooled vote ends below where the untrained pair's was; the oracle gains +0.14. For " +
    "peers that learn, open 'Self-reward collapses, peers learn, the oracle leads' (peers-learn: " +
    'the same pair a little stronger, trained harder and longer; about 16 s here). Why an equal pair: paired with a weaker model, ' +
    'a stronger one is paid for copying worse votes than its own; two weaker ones collude.',
  runtime: '21-24 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  spec: regime({
    // The link's seed, by the rule of docs/RESULTS.md, "The link's seed": the confirmation seed
    // (101-108) whose headline difference (peer end - self end) is nearest the block's median.
    seed: 105,
    members: [mlp('A', TARGET), mlp('B', TARGET)],
    arms: pairArms(),
    steps: 80,
  }),
};

const diversity: Preset = {
  id: 'diversity',
  title: 'Does a different partner help more?',
  explanation:
    'One anchor model A is trained with three partners of falling error overlap, and alone with ' +
    'self-reward. Its twin T has the same initial weights and warm-start data (it differs only in ' +
    'its samples), so the two make the same mistakes; its sibling S is the same kind of model from ' +
    'other seeds and data; the stranger X has another shape (a wider window and one wider layer). ' +
    'All four are warm-started to the same strength. ' +
    'The base error overlap of each pair (Cohen\'s kappa of per-item correctness) is shown before ' +
    'training. Compare how much each pair gains and whether it collapses together. Means over seeds ' +
    '1-8: A lost accuracy next to every partner; next to its twin the most (the twin rescues it ' +
    'least), next to the sibling the least; but that the least similar partner helps more is not ' +
    'shown (on seeds 1-8 or 101-108), and the stranger, as dissimilar as the sibling, did as badly as the twin. ' +
    "Superseded by 'Does a more different partner teach more?' (overlap): the same question where " +
    'peers learn, with five measured overlaps; this preset stays so that its links open as before.',
  runtime: '24-34 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  spec: regime({
    members: [
      mlp('A', TARGET),
      { ...mlp('A', TARGET), id: 'T', sampleSeed: mlp('A', TARGET).sampleSeed + 1 },
      mlp('S', TARGET),
      mlp('X', TARGET, { window: 8, dModel: 96, layers: 1 }),
    ],
    arms: [
      { id: 'self', scheme: 'self', members: ['A'] },
      { id: 'peer-twins', scheme: 'peer', members: ['A', 'T'] },
      { id: 'peer-siblings', scheme: 'peer', members: ['A', 'S'] },
      { id: 'peer-strangers', scheme: 'peer', members: ['A', 'X'] },
    ],
    steps: 80,
  }),
};

const ensembleControl: Preset = {
  id: 'ensemble-control',
  title: 'Compute-matched control: a peer pair against two self-trained models',
  explanation:
    'Is the peer pair better than simply training two models separately and letting them vote ' +
    'together? Both arms train the same two models for the same steps on the same prompts; on every ' +
    'evaluation the lab pools each pair\'s samples into one majority vote (the ensemble chart). If ' +
    'the peer pair only matched the pooled self-trained pair, talking to each other would add nothing. ' +
    'Measured over seeds 1-8 (and shown again on 101-108): the peer pair pools far better (mostly because a collapsed self-trained ' +
    'member outvotes its partner), but both trained pairs pool below the dashed line, the same pair ' +
    'before training.',
  runtime: '16 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  // The collapse preset without its oracle arm: the same members, settings and random streams, so
  // these two arms are exactly collapse's self and peer arms (npm run science relies on it).
  spec: { ...collapse.spec, arms: collapse.spec.arms.filter((a) => a.id !== 'oracle') },
};

const ring: Preset = {
  id: 'ring',
  title: 'A ring of three against self-reward',
  explanation:
    'Three models of three shapes each learn from the majority vote of the one before it ' +
    '(A learns from B, B from C, C from A): no pair can simply agree with each other, which is one ' +
    'proposed cure for peers colluding on a wrong answer. The self arm trains the same three alone. ' +
    'Errors can still travel round the ring: in one of eight measured seeds all three converged on ' +
    'the same wrong answers. Over seeds 1-8 the ring ended above self-reward in 7 (shown, and again on ' +
    'seeds 101-108); a gain of the ring itself is not shown (docs/RESULTS.md).',
  runtime: '27 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  spec: regime({
    // One warm-start target, so the three shapes start at a similar strength.
    members: [mlp('A', TARGET), mlp('B', TARGET, { window: 8, dModel: 96, layers: 1 }), mlp('C', TARGET, { window: 7, dModel: 48, layers: 2 })],
    arms: [
      { id: 'ring', scheme: 'ring', members: ['A', 'B', 'C'] },
      { id: 'self', scheme: 'self', members: ['A', 'B', 'C'] },
    ],
    steps: 80,
  }),
};

const intrinsic: Preset = {
  id: 'intrinsic',
  title: 'Rewarding confidence instead of agreement',
  explanation:
    'Two label-free rewards that need no vote at all: entropy (RENT: reward low-entropy, confident ' +
    'answers) and self-certainty (Intuitor: reward distributions far from uniform). Both make the ' +
    'model sure of itself, right or wrong; compare them with the peer reward on the same pair. Watch ' +
    'entropy fall towards zero in both intrinsic arms while held-out accuracy falls with it (over seeds ' +
    '1-8, from 0.44 to about 0.1 within ~20 steps, every member, every seed).',
  runtime: '23 s per seed on a quiet 2-core CPU (wasm, warm start included); GPU not measured',
  spec: regime({
    members: [mlp('A', TARGET), mlp('B', TARGET)],
    arms: [
      { id: 'entropy', scheme: 'entropy', members: ['A', 'B'] },
      { id: 'certainty', scheme: 'certainty', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    steps: 80,
  }),
};

/**
 * A transformer (d32, 2 blocks, 4 heads) warm-started to the same target as the MLPs. Transformers
 * sit on a plateau for ~250 steps and then jump, at a seed-dependent step (docs/RESULTS.md,
 * "transformers"): most reach the target in 300-600 steps, some not in 800, so a member that misses
 * is retried with the next init seed instead of entering RL half-trained.
 */
function transformer(id: string, target: number): MemberSpec {
  return member({ id, family: 'transformer', dModel: 32, layers: 2, heads: 4, warmStartSteps: 800, warmStartTarget: target, warmStartExamples: 500 });
}

const peersTeach: Preset = {
  id: 'peers-teach',
  title: 'Transformers: does a peer teach?',
  explanation:
    'Two small transformers, warm-started until they get about 45% of held-out sums right, trained ' +
    'four ways from the same weights: on the true answers (oracle), on their own majority vote ' +
    "(self), on each other's majority vote (peer), and A alone on the votes of a frozen copy of B " +
    '(teacher). The frozen teacher is the control: if the peer arm beats it, it is because the ' +
    'partner gets better while it teaches, not only because its labels were good to begin with. ' +
    "Watch panel 2: where a member's own vote is wrong, how often is its partner's label right " +
    '(rescue), and how often are both wrong with the same answer?',
  runtime: 'In the browser from its link (Chromium 156, wasm, fresh 2-core machine, shipped warm starts): first RL step after 5.2 s, the whole run 43-44 s. CLI, other seeds (they warm-start): 3.3-7.2 min per seed on a busy 2-core CPU (wasm). GPU not measured',
  spec: regime({
    warmStart: { onMiss: 'retry', retries: 2 },
    members: [transformer('A', TARGET), transformer('B', TARGET)],
    arms: [
      ...pairArms(),
      { id: 'teacher', scheme: 'teacher', members: ['A'], teacher: 'B' },
    ],
    grpo: { learningRate: 3e-4 },
    steps: 100,
  }),
};

const families: Preset = {
  id: 'families',
  title: 'Different partners: family and size',
  explanation:
    'One transformer A is trained with three partners, each in its own peer arm: T, a transformer ' +
    'of the same size from other seeds; S, a wider transformer; and M, a windowed MLP, another ' +
    'model family. All four are warm-started to the same strength. Co-RL reports that the gain ' +
    'grows with how different the peers are. Before training the lab measures how much each pair ' +
    'overlaps in its errors (kappa, and the correlation of their per-problem accuracies); compare ' +
    'that with how much A gains next to each partner, and with how often the two end up wrong with ' +
    'the same answer (panel 2). Independently seeded members hardly share errors here, so this ' +
    "preset has little overlap to compare: 'Does a more different partner teach more?' (overlap) " +
    'asks the question with a dial of overlaps and a partner of another family at a matched overlap.',
  runtime: 'In the browser from its link (Chromium, wasm, quiet 2-core CPU, shipped warm starts): first RL step after 3.8 s, the whole run 1.7 min. CLI, other seeds: 2.8-9.4 min per seed on a busy 2-core CPU (wasm, warm start included; the wider partner often needs a retry). GPU not measured',
  spec: regime({
    warmStart: { onMiss: 'retry', retries: 3 },
    members: [
      transformer('A', TARGET),
      transformer('T', TARGET),
      member({ id: 'S', family: 'transformer', dModel: 48, layers: 2, heads: 4, warmStartSteps: 800, warmStartTarget: TARGET, warmStartExamples: 500 }),
      mlp('M', TARGET),
    ],
    arms: [
      { id: 'peer-same', scheme: 'peer', members: ['A', 'T'] },
      { id: 'peer-wider', scheme: 'peer', members: ['A', 'S'] },
      { id: 'peer-mlp', scheme: 'peer', members: ['A', 'M'] },
    ],
    grpo: { learningRate: 3e-4 },
    steps: 100,
  }),
};

const length: Preset = {
  id: 'length',
  title: 'Answers that can change length: here peers learn',
  explanation:
    'Here the models may answer in two ways: with the running-sum scratchpad (six tokens, more ' +
    'often right) or with the bare answer (two tokens, a guess). They were warm-started on a fair ' +
    'mix of both, so response length can move, and they start weaker (about 31% right) than in the ' +
    'collapse preset. Does self-reward drift to short guesses? Measured over seeds 1-8, no: every ' +
    'arm moves towards the scratchpad (about +1 token) and every arm learns. The oracle gains ' +
    "+0.35; the peer arm +0.23, and the accuracy of its partner's votes rises with it (panel 2: the " +
    'virtuous cycle); self-reward gains early and ends +0.15. On seeds 101-108 the peer arm gains ' +
    'again (+0.24), but that it ends above the self arm (+0.06) is not shown with Holm. Self-reward does ' +
    'not collapse within 80 steps here. Run longer (200 steps, 4 seeds), it rises, then slides a ' +
    'little; and in one of those seeds the peer pair colluded on short wrong answers (3-4 tokens, ' +
    'pass@1 0.11) while the self pair fell too.',
  runtime: 'In the browser from its link (Chromium, wasm, quiet 2-core CPU, shipped warm starts): first RL step after 2.2 s, the whole run 21 s. CLI: 55-62 s per seed on a busy 2-core CPU (wasm, warm start included). GPU not measured',
  spec: regime({
    task: { scratchpad: 'mixed' },
    // The target counts only the reference completion (one of two valid ones), so it undercounts
    // pass@1 under 'mixed' (docs/RESULTS.md, "length"): a fixed warm-start budget instead.
    members: [mlp('A', 0, { warmStartSteps: 200 }), mlp('B', 0, { warmStartSteps: 200 })],
    arms: pairArms(),
    steps: 80,
  }),
};

/**
 * The search for a default where peers learn (issue 21; docs/RESULTS.md, "Looking for a default
 * where peers learn", `npm run search-default`): the collapse pair warm-started further (target
 * 0.5 instead of 0.4), trained harder (learning rate 8e-4 instead of 4e-4) and longer (120 steps).
 * Chosen on tuning seeds 1-8 among 15 candidates, then confirmed on seeds 109-116, run only after
 * the settings were frozen: every claim of the story held there (RESULTS.md gives the intervals).
 */
const peersLearn: Preset = {
  id: 'peers-learn',
  title: 'Self-reward collapses, peers learn, the oracle leads',
  explanation:
    'The collapse pair, a little stronger at the start (warm-started until about half of held-out ' +
    'sums are right per sample, three quarters by majority vote) and trained harder and longer. ' +
    'The self arm rewards each model for ' +
    'agreeing with its own majority vote: its reward climbs while held-out accuracy falls. The peer ' +
    "arm rewards it for agreeing with its partner's vote, and here the pair learns: both end above " +
    "where they started, and the partner's votes get more accurate as they go (panel 2). The oracle, " +
    'trained on the true answers, ends higher still. Over 8 seeds run only after these settings were ' +
    "chosen (109-116), the self arm's held-out pass@1 fell 0.15 from its start, the peer arm's rose 0.16 and " +
    "its partner's votes got 0.11 more accurate, and the oracle ended 0.15 above the peer arm. " +
    'One seed can still disagree: run a few.',
  runtime: 'CLI: 15-20 s per seed on a quiet 2-core CPU (wasm, warm start included). GPU not measured',
  spec: regime({
    // The link's seed, by a rule stated before looking (docs/RESULTS.md, "The link's seed"): the
    // confirmation seed whose headline difference (peer arm, end - start) is nearest the median.
    seed: 110,
    members: [mlp('A', 0.5), mlp('B', 0.5)],
    arms: pairArms(),
    grpo: { learningRate: 8e-4 },
    steps: 120,
  }),
};

/**
 * The overlap dial (issue 30; docs/METHOD.md, "Overlap dial"; docs/PREREG-overlap.md): the
 * peers-learn anchor A next to partners whose base errors overlap A's more and more, one peer arm
 * each, plus A alone on its own votes (self) and on the labels (oracle). Same-family levels, least
 * overlapping first: S, its own seeds; B0, A's initial weights warm-started on its own data and
 * order; B50 and B80, that member moved 50% and 80% of the way to A's warm-started weights (dial
 * 'blend'); T, A's twin (A's weights, its own samples). X has another shape (window 8, one layer
 * of 96) and imitates A's greedy answers instead of the references on all its warm-start problems
 * (dial 'labels'): a cross-family partner whose overlap lies between B50's and B80's.
 */
function overlapPartner(id: string, dial?: MemberSpec['dial'], extra: Partial<MemberSpec> = {}): MemberSpec {
  return { ...mlp(id, 0.5, extra), ...(dial ? { dial } : {}) };
}

const overlap: Preset = {
  id: 'overlap',
  title: 'Does a more different partner teach more?',
  explanation:
    'One model A (the peers-learn anchor) learns from the votes of six partners in turn, one peer arm ' +
    'each, all warm-started to about its strength: S from its own seeds; B0 from A\'s starting weights ' +
    'but its own data; B50 and B80, B0 moved half and four fifths of the way to A\'s weights; T, A\'s ' +
    'twin (the same weights, its own samples); and X, a model of another shape that learned from A\'s ' +
    'own answers. Before training the lab measures how much each partner\'s errors overlap A\'s ' +
    '(kappa, panel 2); the self and oracle arms train A alone. Co-RL says the gain grows as the ' +
    'overlap falls: compare A\'s gain next to each partner with that partner\'s overlap. Over 12 ' +
    'seeds run after the plan was fixed (201-212), A gained 0.15 more next to S than next to its ' +
    'twin (+0.09 against −0.06; shown, with Holm), and S\'s votes rescued more of A\'s wrong answers ' +
    '(shown); a steady fall across all five levels is not shown (the slope is within the noise), nor ' +
    'is a difference between X and a same-family partner of its overlap. During training every ' +
    'pair\'s errors drew together.',
  runtime: 'In the browser from its link (headless Chromium, 2-core CPU shared with other runs, load average 4-6, shipped warm starts): first RL step after 12 s, the whole run 52 s. CLI, other seeds (they warm-start): 7.5-13.5 min per seed with five seeds at once on a 2-core CPU shared with other runs (wasm). GPU not measured',
  spec: regime({
    // The link's seed, by the rule of docs/RESULTS.md, "The link's seed": the confirmation seed
    // (201-212) whose headline difference (A's gain next to S minus next to T) is nearest the median.
    seed: 203,
    members: [
      mlp('A', 0.5),
      overlapPartner('S'),
      overlapPartner('B0', { from: 'A', mode: 'blend', share: 0 }),
      overlapPartner('B50', { from: 'A', mode: 'blend', share: 0.5 }),
      overlapPartner('B80', { from: 'A', mode: 'blend', share: 0.8 }),
      { ...mlp('A', 0.5), id: 'T', sampleSeed: mlp('A', 0.5).sampleSeed + 1 },
      overlapPartner('X', { from: 'A', mode: 'labels', share: 1 }, { window: 8, dModel: 96, layers: 1 }),
    ],
    arms: [
      { id: 'oracle', scheme: 'oracle', members: ['A'] },
      { id: 'self', scheme: 'self', members: ['A'] },
      ...['S', 'B0', 'B50', 'B80', 'T', 'X'].map((p) => ({ id: `peer-${p}`, scheme: 'peer' as const, members: ['A', p] })),
    ],
    grpo: { learningRate: 8e-4 },
    steps: 120,
  }),
};

export const PRESETS: Record<string, Preset> = {
  quick,
  collapse,
  'peers-learn': peersLearn,
  diversity,
  'ensemble-control': ensembleControl,
  ring,
  intrinsic,
  'peers-teach': peersTeach,
  families,
  length,
  overlap,
};
export const DEFAULT_PRESET = 'peers-learn';

export function getPreset(id: string): Preset | undefined {
  return Object.prototype.hasOwnProperty.call(PRESETS, id) ? PRESETS[id] : undefined;
}
