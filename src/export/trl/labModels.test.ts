/**
 * The lab's MLP under TRL is the lab's MLP: the exported lab_models.py, given the lab's warm-start
 * file, gives the next-token probabilities the lab's own policy gives with the same weights, at
 * every position of shared prompts (batched as TRL batches them: left-padded with PAD, with an
 * attention mask), and transformers' greedy generate() writes the lab's greedy completion.
 *
 * The PyTorch side needs torch and transformers: the venv `npm run trl-check` makes (.venv-trl, or
 * TRL_PYTHON). Without it the comparison is skipped with that reason; nothing here installs it.
 */
import * as tf from '@tensorflow/tfjs';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { createPolicy } from '../../core/models/index';
import { getPreset } from '../../core/experiment/presets';
import { resolveSpec } from '../../core/experiment/resolve';
import { BOS_ID, EOS_ID, VOCAB, VOCAB_SIZE, encode, encodePrompt } from '../../core/tasks/tokenizer';
import { targetCompletion } from '../../core/tasks/index';
import { readWarmStartFile, ROOM_WARM_START_DIR, SHIPPED_WARM_START_DIR } from '../../engine/warmStartNode';
import { storedWarmStart } from '../../../cli/trl/trl-check-models';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PYTHON = process.env.TRL_PYTHON ?? `${ROOT}.venv-trl/bin/python`;
const EXPORT_PYTHON = fileURLToPath(new URL('./python/', import.meta.url));
const ORACLE = fileURLToPath(new URL('./pytests/lab_model_probs.py', import.meta.url));

function torchReady(): string | null {
  if (!existsSync(PYTHON)) return `no venv python at ${PYTHON} (npm run trl-check makes .venv-trl; TRL_PYTHON names another)`;
  const r = spawnSync(PYTHON, ['-c', 'import torch, transformers'], { encoding: 'utf8', timeout: 120_000 });
  return r.status === 0 ? null : `${PYTHON} cannot import torch and transformers`;
}
const skipWhy = torchReady();
if (skipWhy) console.warn(`NOTICE: the lab-model parity test is skipped: ${skipWhy}`);

// The default link's run: peers-learn, seed 110, member A, whose warm start ships with the site.
const spec = getPreset('peers-learn')!.spec;
const member = spec.members[0];
const file = storedWarmStart(spec, member, [SHIPPED_WARM_START_DIR, ROOM_WARM_START_DIR]).path!;

interface Oracle {
  probs: number[][][];
  greedy: number[][];
}

function oracle(sequences: number[][], prompts: number[][], maxNew: number, plant: string | null = null): Oracle {
  const input = JSON.stringify({ warm_start: file, vocab: VOCAB, sequences, prompts, max_new_tokens: maxNew, plant });
  const r = spawnSync(PYTHON, [ORACLE, EXPORT_PYTHON], { input, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, OMP_NUM_THREADS: '1', PYTHONDONTWRITEBYTECODE: '1' } });
  if (r.status !== 0) throw new Error(`lab_model_probs.py exited ${r.status}:\n${r.stderr}`);
  return JSON.parse(r.stdout) as Oracle;
}

const maxAbs = (a: number[][][], b: number[][][]) => Math.max(...a.flatMap((s, i) => s.flatMap((p, t) => p.map((x, v) => Math.abs(x - b[i][t][v])))));

describe.skipIf(skipWhy !== null)("the lab's MLP exported to TRL (lab_models.py)", () => {
  let sequences: number[][] = [];
  let prompts: number[][] = [];
  let labProbs: number[][][] = [];
  let labGreedy: number[][] = [];
  const cap = 10;

  beforeAll(async () => {
    await tf.setBackend('cpu');
    const resolved = resolveSpec(spec);
    const held = resolved.split.heldOut.slice(0, 6);
    prompts = held.map((p) => encodePrompt(p.prompt));
    // Prompts alone, and prompts with part of a completion (positions past the window's reach).
    sequences = held.map((p, i) => [...encodePrompt(p.prompt), ...encode(targetCompletion(p, true).slice(0, i + 1))]);
    const w = readWarmStartFile(file);
    const policy = createPolicy({ family: 'mlp', vocabSize: VOCAB_SIZE, maxLen: resolved.maxLen, dModel: member.dModel, layers: member.layers, window: member.window }, new Rng(1, 'unused'));
    policy.importWeights(w.weights);
    labProbs = sequences.map((s) => tf.tidy(() => (tf.softmax(policy.logits(tf.tensor2d([s], [1, s.length], 'int32'))).arraySync() as number[][][])[0]));
    labGreedy = prompts.map((p) => {
      const out: number[] = [];
      const seq = [...p];
      while (out.length < cap) {
        const next = tf.tidy(() => tf.argMax(policy.logits(tf.tensor2d([seq], [1, seq.length], 'int32')).slice([0, seq.length - 1, 0], [1, 1, VOCAB_SIZE]).reshape([VOCAB_SIZE])).dataSync()[0]);
        out.push(next);
        seq.push(next);
        if (next === EOS_ID) break;
      }
      return out;
    });
    policy.dispose();
  }, 120_000);

  it('gives the same next-token probabilities at every position, left-padded as TRL pads', () => {
    expect(prompts.every((p) => p[0] === BOS_ID)).toBe(true);
    const got = oracle(sequences, [], cap);
    expect(got.probs.map((s) => s.length)).toEqual(sequences.map((s) => s.length));
    expect(maxAbs(got.probs, labProbs)).toBeLessThan(1e-5);
  }, 300_000);

  it("writes the lab's greedy completions through transformers' generate()", () => {
    const got = oracle(sequences.slice(0, 1), prompts, cap);
    expect(labGreedy.some((g) => g.includes(EOS_ID))).toBe(true);
    expect(got.greedy).toEqual(labGreedy.map((g) => (g.at(-1) === EOS_ID ? g : g.slice(0, cap))));
  }, 300_000);

  it('would catch a model that reads its window in the wrong order (a planted defect)', () => {
    const got = oracle(sequences, [], cap, 'reversed-window');
    expect(maxAbs(got.probs, labProbs)).toBeGreaterThan(1e-2);
  }, 300_000);
});
