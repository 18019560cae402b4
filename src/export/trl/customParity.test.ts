/**
 * A task of one's own in the exported project: cohort_rewards.extract_answer reads a completion of
 * a custom task as the lab's extractAnswer does (the text after the last '>', normalised: letters
 * keeping their case, integers compared as numbers where every answer is one; spaces, which only
 * a task with spaces in its vocabulary can write, are checked in a case of their own),
 * and the export's config.json says which comparison the task uses.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { PRESETS } from '../../core/experiment/presets';
import { specWithTask } from '../../core/experiment/withTask';
import { GALLERY } from '../../core/tasks/custom/gallery';
import { customTask, type TaskDefinition } from '../../core/tasks/custom/index';
import { EOS_ID, completionText, extractAnswer } from '../../core/tasks/index';
import { cohortRewards, hasPython, writeExport } from './python.testkit';
import { buildTrlProject } from './build';
import { nodePythonSources } from '../../../cli/trl/export-sources';

// The Python side needs python3 >= 3.10 (Debian's, which CI installs with Chromium's machine): where
// it is missing, the comparison cannot run and is skipped; the config test below still runs.
const py = hasPython();
let dir = '';
beforeAll(() => {
  if (py) dir = writeExport().dir;
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const numeric: TaskDefinition = { kind: 'generator', title: 'Difference', template: '{a}-{b}=', vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 99 } }, answer: 'a-b' };
const letters = GALLERY.find((t) => t.id === 'digits-to-letters')!.definition;

describe.skipIf(!py)('a custom task in the exported cohort_rewards.py', () => {
  it('extracts the answer a completion votes for as the lab does, for numeric and text answers', () => {
    const gen = new Rng(23, 'fixtures/custom-extract');
    const cases: { text: string; truncated: boolean; numeric: boolean; expected: string | null }[] = [];
    for (const def of [numeric, letters]) {
      const task = customTask(def);
      const alphabet = task.vocabulary!.tokens.filter((c) => c.length === 1 && !'_^$>'.includes(c));
      for (let k = 0; k < 600; k++) {
        let text = '';
        for (let j = gen.int(8); j > 0; j--) text += alphabet[gen.int(alphabet.length)];
        if (gen.int(2) === 0) {
          text += '>';
          if (def === numeric && gen.int(3) === 0) text += ['+', '-', '0', '00', '-0'][gen.int(5)];
          for (let j = 1 + gen.int(4); j > 0; j--) text += alphabet[gen.int(alphabet.length)];
        }
        const truncated = gen.int(8) === 0;
        const ids = [...task.vocabulary!.encode(text), ...(truncated ? [] : [EOS_ID])];
        expect(completionText(ids, task.vocabulary)).toBe(truncated ? null : text);
        cases.push({ text, truncated, numeric: task.numericAnswers === true, expected: extractAnswer(ids, task, 1) });
      }
    }
    expect(cases.filter((c) => c.expected !== null).length).toBeGreaterThan(200);
    expect(cases.some((c) => c.numeric && c.expected !== null && /^-?\d+$/.test(c.expected) && c.text.includes('>0'))).toBe(true);
    const code = 'print(json.dumps([cr.extract_answer(c["text"], "custom", 1, c["truncated"], c["numeric"]) for c in cases]))';
    expect(cohortRewards(dir, code, cases)).toEqual(cases.map((c) => c.expected));
  });
});

describe.skipIf(!py)('the normalisation itself', () => {
  it('trims, keeps case, reads integers as numbers only in a numeric task, and gives no vote for an empty answer', async () => {
    const { normaliseAnswer } = await import('../../core/tasks/custom/normalise');
    const texts = ['7', ' 07 ', '+7', '-0', '-007', '00', 'Yes', ' yes', '', '   ', '1 2', '3.', '+x', '-'];
    const cases = texts.flatMap((t) => [true, false].map((n) => ({ t, n, expected: normaliseAnswer(t, n) })));
    const code = 'print(json.dumps([cr.normalise_custom_answer(c["t"], c["n"]) for c in cases]))';
    expect(cohortRewards(dir, code, cases)).toEqual(cases.map((c) => c.expected));
  });
});

describe('a custom task in the export', () => {
  it("config.json names the task and how its answers are compared; the data rows hold the lab's canonical answers", () => {
    for (const [def, isNumeric] of [[numeric, true], [letters, false]] as const) {
      const r = specWithTask(PRESETS['peers-learn'].spec, def);
      if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
      const project = buildTrlProject(r.spec, { models: ['m-a', 'm-b'], presetId: null }, nodePythonSources());
      const file = (path: string) => project.files.find((f) => f.path === path)!.text;
      expect(JSON.parse(file('config.json')).task).toEqual({ id: 'custom', difficulty: 1, title: def.title, numeric_answers: isNumeric });
      const held = file('data/heldout.jsonl').trim().split('\n').map((l) => JSON.parse(l) as { lab_prompt: string; answer: string });
      expect(held).toHaveLength(r.spec.data.heldOut);
      for (const row of held) expect(row.lab_prompt).toMatch(def === numeric ? /^\d+-\d+=$/ : /./);
    }
  });
});
