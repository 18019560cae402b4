/**
 * The PyTorch references of npm run bench (cli/bench/bench-torch.ts): the cohorts they mirror, the
 * script's command line, and the section's comparison with the Node wasm rows. The script itself
 * is a measurement: `python3 scripts/torch_reference.py --family transformer --repeats 1` is its
 * smoke run.
 */
import { describe, expect, it } from 'vitest';
import type { BenchRow } from '../../src/core/benchmark/index';
import { labRatio, torchArgs, torchCohorts, torchSection, type TorchResult } from './bench-torch';

const timing = (stepMs: number) => ({ stepMs, stepMsMin: stepMs - 10, stepMsMax: stepMs + 10, rolloutMs: stepMs / 4, updateMs: (3 * stepMs) / 4 });

const result = (over: Partial<TorchResult>): TorchResult => ({
  torch: '1.13.0a0',
  blas: 'openblas',
  threads: 1,
  models: 6,
  family: 'mlp',
  frozen: 0,
  decode: 'window',
  shape: 'mlp d64 L2 w6',
  B: 16,
  G: 8,
  promptLength: 7,
  newTokens: 7,
  params: 31122,
  repeats: 5,
  fullRecompute: timing(250),
  newPositionOnly: timing(100),
  preset: 'collapse',
  target: 1.5,
  date: '2026-12-01',
  ...over,
});

const row = (over: Partial<BenchRow>): BenchRow => ({
  backend: 'wasm',
  where: 'node',
  preset: 'collapse',
  models: 6,
  shape: 'mlp d64 L2 w6',
  kernelsPerStep: 2224,
  dispatchesPerStep: null,
  submitsPerStep: null,
  readbacksPerStep: 2,
  gpuReadbacksPerStep: null,
  stepMs: { median: 140, min: 130, max: 150 },
  tokensPerS: 1,
  peakBytes: 1,
  tensorDrift: 0,
  steps: 5,
  warmup: 2,
  topKernels: [],
  webgpuCpuForward: null,
  date: '2026-12-01',
  ...over,
});

describe('PyTorch reference cohorts', () => {
  it('mirrors collapse (6 MLPs), peers-teach (7 transformers d32 L2 h4 and a frozen teacher) and collapse-transformer (6, h2)', () => {
    const c = Object.fromEntries(torchCohorts().map((x) => [x.preset, x]));
    expect(Object.keys(c)).toEqual(['collapse', 'peers-teach', 'collapse-transformer']);
    expect(c['collapse'].shape).toMatchObject({ family: 'mlp', models: 6, frozen: 0, dModel: 64, layers: 2, window: 6, prompts: 16, group: 8, vocab: 18 });
    expect(c['peers-teach'].shape).toMatchObject({ family: 'transformer', models: 7, frozen: 1, dModel: 32, layers: 2, heads: 4, prompts: 16, group: 8 });
    expect(c['collapse-transformer'].shape).toMatchObject({ family: 'transformer', models: 6, frozen: 0, dModel: 32, layers: 2, heads: 2 });
    // digitsum at difficulty 3: BOS + 6 prompt tokens, a 7-token cap; positions for P + L.
    expect(c['peers-teach'].shape).toMatchObject({ promptLength: 7, newTokens: 7, maxLen: 14 });
    expect([c['collapse'].target, c['peers-teach'].target, c['collapse-transformer'].target]).toEqual([1.5, 2, 2]);
  });

  it("passes the family's own flags to the script", () => {
    const [mlp, peers] = torchCohorts();
    const a = torchArgs(mlp.shape, 3);
    expect(a[0]).toBe('scripts/torch_reference.py');
    expect(a.join(' ')).toContain('--family mlp --models 6 --frozen 0 --prompts 16 --group 8 --prompt-len 7 --new-tokens 7 --vocab 18 --d-model 64 --layers 2 --window 6');
    expect(a).not.toContain('--heads');
    const b = torchArgs(peers.shape, 5).join(' ');
    expect(b).toContain('--family transformer --models 7 --frozen 1');
    expect(b).toContain('--d-model 32 --layers 2 --heads 4 --max-len 14');
    expect(b).not.toContain('--window');
    expect(b.endsWith('--repeats 5')).toBe(true);
  });
});

describe('torch section', () => {
  const mlp = result({});
  const peers = result({
    family: 'transformer',
    models: 7,
    frozen: 1,
    decode: 'kv-cache',
    shape: 'transformer d32 L2 h4',
    params: 27090,
    preset: 'peers-teach',
    target: 2,
    newPositionOnly: timing(400),
    fullRecompute: timing(900),
  });
  const rows = [row({}), row({ preset: 'peers-teach', models: 7, shape: 'transformer d32 L2 h4', stepMs: { median: 1000, min: 900, max: 1100 } })];

  it('divides the Node wasm step of the same case, models and shape by PyTorch’s incremental step', () => {
    expect(labRatio(mlp, rows)).toBeCloseTo(1.4);
    expect(labRatio(peers, rows)).toBeCloseTo(2.5);
    expect(labRatio(peers, [row({ preset: 'peers-teach', models: 7, shape: 'transformer d32 L2 h2' })])).toBeNull();
    expect(labRatio(mlp, [row({ backend: 'cpu' }), row({ where: 'chromium' })])).toBeNull();
  });

  it('prints one row per reference with its lab row, the ratio and the target, met or missed', () => {
    const text = torchSection([mlp, peers], [], rows, 'a machine, load 0.5');
    expect(text).toContain('## PyTorch reference, 2026-12-01');
    expect(text).toContain('Machine: a machine, load 0.5.');
    expect(text).toContain('| `collapse` | 6 | mlp d64 L2 w6 | 31122 | 16 x 8, 7 + 7 | 100 (90-110) | 25 | 75 | 250 | 140 (130-150) | 1.40x | <= 1.5x: met |');
    expect(text).toContain('| `peers-teach` | 7 + 1 frozen teacher | transformer d32 L2 h4 | 27090 | 16 x 8, 7 + 7 | 400 (390-410) | 100 | 300 | 900 | 1000 (900-1100) | 2.50x | <= 2x: missed |');
    expect(text).not.toContain('another day');
    // Every table line has the header's cell count.
    const table = text.split('\n').filter((l) => l.startsWith('|'));
    expect(new Set(table.map((l) => l.split('|').length)).size).toBe(1);
  });

  it('says when there is no lab row, when the lab row is from another day, and what did not run', () => {
    const text = torchSection([mlp, peers], [{ preset: 'collapse-transformer', skipped: 'PyTorch reference failed: boom' }], [row({ date: '2026-11-30' })], 'm');
    expect(text).toContain('| 140 (130-150), 2026-11-30 | 1.40x | <= 1.5x: met |');
    expect(text).toContain('| not measured | – | <= 2x |');
    expect(text).toContain('(`collapse`) are not the same run');
    expect(text).toContain('Not run: `collapse-transformer`: PyTorch reference failed: boom.');
  });

  it('says why when no reference ran', () => {
    const skipped = 'PyTorch reference skipped: python3-torch not installed';
    expect(torchSection([], [{ preset: 'collapse', skipped }, { preset: 'peers-teach', skipped }], [], 'm')).toBe(`## PyTorch reference\n\n${skipped}.\n`);
  });
});
