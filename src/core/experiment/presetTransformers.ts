/**
 * The transformer presets: peers-teach (does a peer teach, against a frozen teacher?) and families
 * (partners of another size and another family). presets.ts lists them with the others.
 */
import { member, pairArms, mlp, regime, TARGET, transformer, type Preset } from './presetKit';

export const peersTeach: Preset = {
  id: 'peers-teach',
  title: 'Transformers: does a peer teach?',
  explanation:
    'Two small transformers, warm-started until they get about 45% of held-out sums right, trained ' +
    'four ways from the same weights: on the true answers (oracle), on their own majority vote ' +
    "(self), on each other's majority vote (peer), and A alone on the votes of a frozen copy of B " +
    '(teacher). The frozen teacher is the control, by design: if the peer arm beats it, it is because the ' +
    'partner gets better while it teaches, not only because its labels were good to begin with. ' +
    "Watch panel 2: where a member's own vote is wrong, how often is its partner's label right " +
    '(rescue), and how often are both wrong with the same answer?',
  runtime: 'CLI, other seeds (they warm-start): 3.3-7.2 min per seed on a busy 2-core CPU (wasm). GPU not measured',
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

export const families: Preset = {
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
  runtime: 'CLI, other seeds: 2.8-9.4 min per seed on a busy 2-core CPU (wasm, warm start included; the wider partner often needs a retry). GPU not measured',
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
