/**
 * A warm-start miss names the cause it measured, through a whole run on wasm: a window that does
 * not see the prompt (the larger of two digits with the window it had before fitting), and too
 * few problems to learn from (the last digit of a product over digits: 100 problems, 45 to train on).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs';
import { useBackend } from '../testing/fixed-policy';
import type { TaskDefinition } from '../tasks/custom/index';
import { getPreset } from './presets';
import { createRun, WarmStartMissError } from './runner';
import { specWithTask } from './withTask';
import type { ExperimentSpec } from './spec';

const digits = { min: 0, max: 9 };

function withTask(def: TaskDefinition): ExperimentSpec {
  const r = specWithTask(getPreset('peers-learn')!.spec, def);
  if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
  return { ...r.spec, steps: 1 };
}

async function missOf(spec: ExperimentSpec): Promise<WarmStartMissError> {
  const run = createRun(spec, { backend: 'wasm' });
  try {
    for await (const e of run.events()) void e;
  } catch (e) {
    return e as WarmStartMissError;
  } finally {
    run.dispose();
  }
  throw new Error('the run did not miss');
}

describe('a target reached on too few rows', () => {
  beforeAll(() => useBackend('wasm'));

  it('a word and its length, 32 rows: each member checks its target on 1 row, and its note says chance could reach it too', async () => {
    const words = 'cat dog house tree apple river mountain sun moon star book chair table window garden flower bird fish horse orange banana car train plane ship road city village ocean island forest desert'.split(' ');
    const spec = withTask({ kind: 'data', title: 'Word length', rows: words.map((w) => ({ prompt: `${w}=`, answer: String(w.length) })) });
    const run = createRun(spec, { backend: 'wasm' });
    let members: { id: string; warmStartReached?: boolean; warmStartNote?: string }[] = [];
    try {
      for await (const e of run.events()) if (e.type === 'base') members = e.members;
    } finally {
      run.dispose();
    }
    expect(members.map((m) => m.warmStartReached)).toEqual([true, true]);
    for (const m of members) {
      expect(m.warmStartNote).toMatch(/^its warm-start target was reached on 1 labeled row it did not train on, where chance \(always writing the most common completion, \d+%\) could reach it too: too few rows to tell learning from memory$/);
    }
  }, 60_000);
});

describe('the measured cause of a miss', () => {
  beforeAll(() => useBackend('wasm'));

  it("a window of 6 on `{a},{b} max=`: the window, with its ceiling, and the window that sees; no tensor left", async () => {
    const fitted = withTask({ kind: 'generator', title: 'Larger digit', template: '{a},{b} max=', vars: { a: digits, b: digits }, answer: 'max(a,b)' });
    const spec = { ...fitted, members: fitted.members.map((m) => ({ ...m, window: 6, warmStartSteps: 10 })) };
    const tensors = tf.memory().numTensors;
    const miss = await missOf(spec);
    expect(miss).toBeInstanceOf(WarmStartMissError);
    expect(miss.measuredCause?.id).toBe('window');
    expect(miss.message).toMatch(
      /^Member A's warm start reached at best [\d.]+% against its target of 50% in 10 steps, so this task looks out of its reach for now\. Measured: member A reads the last 6 characters, and the prompts have up to 8 \(then the completion it writes\): no model reading 6 can write more than 13% of the completions exactly \(measured on 100 problems\), below its target of 50%\. What would help: a window of 9 characters, which sees what the answer depends on\. You can also go on from the best it reached\.$/,
    );
    expect(miss.measured).toMatchObject({ trainRows: 45, heldOutRows: 5, cover: 9 });
    expect(tf.memory().numTensors).toBe(tensors);
  }, 60_000);

  it('the last digit of a product over digits: it learns the 45 problems it trained on and scores chance on the rest: too few, with where more come from', async () => {
    const miss = await missOf(withTask({ kind: 'generator', title: 'Last digit of a product', template: '{a}*{b}=', vars: { a: digits, b: digits }, answer: '(a*b)%10' }));
    expect(miss.measuredCause?.id).toBe('few-rows');
    const m = miss.measured!;
    expect(m.fit).toBeGreaterThanOrEqual(0.5);
    expect(m).toMatchObject({ trainRows: 45, heldOutRows: 5, generatorProblems: 100 });
    expect(miss.message).toMatch(/Measured: member A learnt the 45 rows it trained on \(\d+%\) but writes [\d.]+% of the 5 rows it did not see, no better than chance \(always writing the most common completion scores \d+%\): 45 rows are too few for a rule to show, so it memorised them\. What would help: more problems to learn from \(the generator makes 100: wider ranges make more/);
  }, 120_000);
});
