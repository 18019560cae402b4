/**
 * Science check (`npm run science -- --tests`, not `npm test`: half a minute of training on wasm):
 * a warm start teaches every model family the task, measured on held-out problems.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from './random';
import { createPolicy } from './models/index';
import type { Family } from './models/policy';
import { getTask, makeSplit, sequenceLength } from './tasks/index';
import { VOCAB_SIZE } from './tasks/tokenizer';
import { warmStart } from './warmstart';
import { evaluatePolicy } from './evaluate';
import { useBackend } from './testing/fixed-policy';

describe('warm start on wasm', () => {
  beforeAll(() => useBackend('wasm'));
  // Reversal of 3 digits: chance is 1/1000 per answer, so pass@1 above 0.2 is learning, not luck.
  const task = getTask('reverse');
  const d = 3;
  const split = makeSplit(task, d, new Rng(1, 'split'), { warmStart: 600, rl: 0, heldOut: 40 });
  const maxLen = sequenceLength(task, d) + 1;
  const sizes: Record<Family, { dModel: number; layers: number; window?: number }> = {
    transformer: { dModel: 32, layers: 1 },
    gru: { dModel: 48, layers: 1 },
    mlp: { dModel: 64, layers: 1, window: 8 },
  };

  for (const family of ['transformer', 'gru', 'mlp'] as Family[]) {
    it(`lifts held-out pass@1 of a ${family} well above chance`, async () => {
      const policy = createPolicy({ family, vocabSize: VOCAB_SIZE, maxLen, heads: 2, ...sizes[family] }, new Rng(1, family));
      const evalOpts = { groupSize: 4, temperature: 1, maxNewTokens: task.maxCompletionLength(d) + 1, batchSize: 40, rng: new Rng(2) };
      const before = await evaluatePolicy(policy, task, d, split.heldOut, evalOpts);
      const losses: number[] = [];
      const result = await warmStart(policy, split.warmStart, {
        steps: 400, batchSize: 32, learningRate: 1e-2, scratchpad: 'always', rng: new Rng(3),
        onProgress: (p) => { losses.push(p.loss); },
      });
      const after = await evaluatePolicy(policy, task, d, split.heldOut, evalOpts);
      expect(before.passAt1).toBeLessThan(0.05);
      expect(after.passAt1).toBeGreaterThan(0.2);
      expect(result.finalLoss).toBeLessThan(losses[0]);
      expect(after.answers).toHaveLength(40);
      policy.dispose();
    }, 120_000);
  }

});
