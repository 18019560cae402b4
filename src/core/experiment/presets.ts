/**
 * Named experiments. Each preset is a partial spec layered over a base (presetKit.ts: Sequence
 * Toy's layered configs), with a title and a paragraph for students. Numbers here are tuned by
 * measurement: docs/RESULTS.md gives the runs behind them and the command that reproduces each.
 * The MLP pair presets are here; the transformer presets are in presetTransformers.ts, the
 * overlap dial in presetOverlap.ts; PRESETS lists them all, in the order the page shows them.
 */
import { TARGET, mlp, pairArms, regime, type Preset } from './presetKit';
import { overlap } from './presetOverlap';
import { families, peersTeach } from './presetTransformers';

/** The builders and the type, importable from here as before. */
export { layered, member, type Preset } from './presetKit';

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
    'Measured over seeds 1-8 (and shown again on 101-108): the peer pair pools far better (a likely reason, not a tested one: a collapsed self-trained ' +
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
  runtime: 'CLI: 55-62 s per seed on a busy 2-core CPU (wasm, warm start included). GPU not measured',
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
 * The search for a default where peers learn (docs/RESULTS-NOTEBOOK.md, "Looking for a default
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
