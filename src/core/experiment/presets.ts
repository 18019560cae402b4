/**
 * Named experiments. Each preset is a partial spec layered over `BASE` (Sequence Toy's layered
 * configs), with a title and a paragraph for students. Numbers here are tuned by measurement:
 * docs/RESULTS.md gives the runs behind them and the command that reproduces each.
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

const quick: Preset = {
  id: 'quick',
  title: 'Quick look',
  explanation:
    'The smallest run that still shows the moving parts: two tiny transformers warm-started on a few ' +
    'hundred labeled sums, then a handful of GRPO steps with self, peer and oracle rewards. Too short ' +
    'for collapse to show; use it to see what every panel means, or on a slow machine.',
  runtime: 'about 20 s on this CPU (wasm)',
  spec: layered({
    task: { id: 'digitsum', difficulty: 3, scratchpad: 'always' },
    data: { labeledPool: 300, rlPool: 300, heldOut: 32 },
    warmStart: { batchSize: 32, learningRate: 5e-3 },
    members: [
      member({ id: 'A', family: 'transformer', dModel: 16, layers: 1, warmStartSteps: 60, warmStartExamples: 300 }),
      member({ id: 'B', family: 'transformer', dModel: 16, layers: 1, warmStartSteps: 60, warmStartExamples: 300 }),
    ],
    arms: [
      { id: 'oracle', scheme: 'oracle', members: ['A', 'B'] },
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
    grpo: { promptsPerStep: 4, groupSize: 4, learningRate: 1e-3 },
    steps: 6,
    evalEvery: 3,
  }),
};

const collapse: Preset = {
  id: 'collapse',
  title: 'Self-reward collapses, peer reward holds',
  explanation:
    'Two transformers start from the same warm-started weights in three arms. The self arm rewards ' +
    'each model for agreeing with its own majority vote; the peer arm rewards it for agreeing with ' +
    "its partner's; the oracle arm uses the true answers. Watch the self arm's reward climb while its " +
    'held-out accuracy and entropy fall: it is teaching itself its own mistakes.',
  runtime: 'not yet measured',
  spec: layered({
    members: [member({ id: 'A', family: 'transformer' }), member({ id: 'B', family: 'transformer' })],
    arms: [
      { id: 'oracle', scheme: 'oracle', members: ['A', 'B'] },
      { id: 'self', scheme: 'self', members: ['A', 'B'] },
      { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
    ],
  }),
};

export const PRESETS: Record<string, Preset> = { quick, collapse };
export const DEFAULT_PRESET = 'collapse';

export function getPreset(id: string): Preset | undefined {
  return Object.prototype.hasOwnProperty.call(PRESETS, id) ? PRESETS[id] : undefined;
}
