/**
 * The gradient oracle (cli/trl/torch-check-lib.ts + scripts/torch_gradcheck.py) against real PyTorch:
 * runs where Debian's python has torch, and says it was skipped where it has not (CI installs no
 * torch). One GRPO update of the MLP cohort and of the peers-teach transformer cohort on Node wasm
 * must match PyTorch within the tolerances, and the same update with a planted bug must not.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initNodeBackend } from '../../src/engine/node-backend';
import { compareWithTorch, exportUpdate, findTorchPython, NO_TORCH, reportTable, type Plant } from './torch-check-lib';

const torch = findTorchPython();
const python = 'python' in torch ? torch.python : null;
if (!python) console.log(`cli/trl/torch-check.test.ts ${NO_TORCH}`);

// Skipped only where no python has torch (CI installs none: PyTorch is a test oracle, never a dependency); the
// line printed above says so, and the 'without torch' test below runs everywhere.
describe.skipIf(!python)('the lab’s GRPO update against PyTorch (gradient oracle)', () => {
  let root = '';
  beforeAll(async () => {
    await initNodeBackend('wasm', { fallback: false });
    root = mkdtempSync(join(tmpdir(), 'torch-check-test-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const check = async (caseId: 'collapse' | 'peers-teach', plant: Plant) => {
    const dir = join(root, `${caseId}-${plant}`);
    const before = tf.memory().numTensors;
    const manifest = await exportUpdate(caseId, dir, { seed: 3, plant });
    // The transformer keeps its causal masks (layers.ts caches one per length): at most 2 here.
    expect(tf.memory().numTensors - before).toBeLessThanOrEqual(2);
    const report = compareWithTorch(python!, dir);
    return { manifest, report, table: reportTable(manifest, report) };
  };

  it.each(['collapse', 'peers-teach'] as const)('%s: loss, log-probs, every gradient and the clipped gradients within 1e-5 of PyTorch', async (caseId) => {
    const { manifest, report, table } = await check(caseId, 'none');
    expect(report.failed, table).toEqual([]);
    expect(report.pass).toBe(true);
    // Every parameter was compared, raw and clipped, with something to compare (not all zeros).
    const grads = report.rows.filter((r) => r.name.startsWith('g/'));
    expect(grads.map((r) => r.name.slice(2))).toEqual(manifest.params.map((p) => p.name));
    expect(report.rows.filter((r) => r.name.startsWith('c/'))).toHaveLength(grads.length);
    expect(Math.max(...grads.map((r) => r.scale))).toBeGreaterThan(1e-3);
    expect(report.rows.find((r) => r.name === 'logp')!.scale).toBeGreaterThan(1);
  });

  it.each([
    ['collapse', 'adv-sign'],
    ['peers-teach', 'bnpo'],
  ] as const)('%s with a planted bug (%s) fails the check', async (caseId, plant) => {
    const { report } = await check(caseId, plant);
    expect(report.pass).toBe(false);
    expect(report.failed.some((n) => n.startsWith('g/'))).toBe(true);
  });
});

describe('without torch', () => {
  it('says the oracle was skipped and why', () => {
    // A python that is not there, and a program for which `-c 'import torch'` fails (node stands in for a python without torch).
    expect(findTorchPython(['/nonexistent/python3', process.execPath])).toEqual({ skipped: NO_TORCH });
    expect(NO_TORCH).toBe('skipped: no torch (apt-get install python3-torch)');
    if (!python) expect(torch).toEqual({ skipped: NO_TORCH });
  });
});
