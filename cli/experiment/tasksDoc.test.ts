/**
 * docs/TASKS.md against the code: its limits table is TASK_LIMITS and EXPR_LIMITS, its function
 * table names every builtin, and every example in that table evaluates to what the table says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTINS, evaluate } from '../../src/core/tasks/custom/evaluate';
import { EXPR_LIMITS, parseExpr } from '../../src/core/tasks/custom/expr';
import { TASK_LIMITS } from '../../src/core/tasks/custom/definition';
import { VOCAB } from '../../src/core/tasks/tokenizer';
import { CHECK_LIMITS, checkTaskDefinition, type TaskDefinition } from '../../src/core/tasks/custom/index';

const doc = readFileSync(join(process.cwd(), 'docs', 'TASKS.md'), 'utf8');
const num = (n: number) => n.toLocaleString('en-US');

describe('docs/TASKS.md', () => {
  it('states the limits the code enforces', () => {
    const rows: [string, number][] = [
      ['Characters in a prompt', TASK_LIMITS.promptChars],
      ['Characters in an answer', TASK_LIMITS.answerChars],
      ['Characters in a scratchpad', TASK_LIMITS.scratchpadChars],
      ['Rows of a data task', TASK_LIMITS.rows],
      ['Bytes of a task file', TASK_LIMITS.fileBytes],
      ['Variables of a generator', TASK_LIMITS.vars],
      [`Vocabulary, the ${VOCAB.length} shared tokens included`, TASK_LIMITS.vocabulary],
    ];
    rows.push([`Steps of one task's check`, CHECK_LIMITS.work]);
    for (const [what, n] of rows) expect(doc).toContain(`| ${what} | ${num(n)} |`);
    // The refusal the budget section quotes is the check's own, for the rule it describes.
    const terms = Array.from({ length: 6 }, (_, i) => `reverse(join(digits(a*${i + 3}+b), "-"))`).join(',');
    const def: TaskDefinition = { kind: 'generator', title: 't', template: '{a}+{b}=', vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 199 } }, answer: `len(cat(${terms}))` };
    const refusal = checkTaskDefinition(def).findings[0].message;
    expect(refusal).toMatch(/^checking this task would take up to/);
    expect(doc.replace(/\s+/g, ' ')).toContain(refusal.replace(/\s+/g, ' '));
    expect(doc).toContain(`| Title, description | ${TASK_LIMITS.titleChars}, ${TASK_LIMITS.descriptionChars} characters |`);
    expect(doc).toContain(`at most ${EXPR_LIMITS.sourceChars} characters and nests at most ${EXPR_LIMITS.depth} deep`);
    expect(doc).toContain(`may pass ${EXPR_LIMITS.textChars} characters`);
    expect(doc).toContain(`at most ${num(EXPR_LIMITS.steps)} steps`);
    expect(doc).toContain(`within ±${num(TASK_LIMITS.varAbs)}`);
  });

  it('lists every builtin, and each example gives what the table says', () => {
    const table = doc.split('| Function | Gives | Example |')[1].split('\n\n')[0];
    for (const name of Object.keys(BUILTINS)) expect(table).toContain(`\`${name}(`);
    const examples = [...table.matchAll(/\| `([^`]+)` is (-?\d+|"[^"]*") \|/g)];
    expect(examples.length).toBeGreaterThanOrEqual(12);
    for (const [, source, shown] of examples) {
      const want = shown.startsWith('"') ? shown.slice(1, -1) : Number(shown);
      expect(evaluate(parseExpr(source), {}), source).toBe(want);
    }
  });
});
