import { describe, expect, it } from 'vitest';
import { Rng } from '../../random';
import { makeSplit } from '../index';
import { adoptCheck, checkSummary } from './check';
import { CHECK_LIMITS } from './cost';
import { parseSpec } from '../../experiment/spec';
import { PRESETS } from '../../experiment/presets';
import { checkTaskDefinition, previewProblems, taskContentHash, type TaskDefinition } from './index';

const addition: TaskDefinition = {
  kind: 'generator',
  title: 'Two-digit addition',
  template: '{a}+{b}=',
  vars: { a: { min: 10, max: 99 }, b: { min: 10, max: 99 } },
  answer: 'a+b',
  scratchpad: 'join(reverse(a+b), ",")',
};

const errors = (def: unknown, sizes?: { labeledPool: number; rlPool: number; heldOut: number }) =>
  checkTaskDefinition(def as TaskDefinition, sizes).findings.filter((f) => f.severity === 'error').map((f) => f.message);

describe('a generator task', () => {
  it('counts its problems, sizes its prompts and completions, and writes problems checkable by hand', () => {
    const { task, findings } = checkTaskDefinition(addition);
    expect(task).toBeDefined();
    expect(task!.problemCount(1)).toBe(90 * 90);
    expect(task!.promptLength(1)).toBe(6); // "47+85="
    // The longest completion: "8,9,1>198" (99+99) has 9 characters.
    expect(task!.maxCompletionLength(1)).toBe(9);
    expect(findings.find((f) => f.severity === 'note')?.message).toMatch(/8100 distinct problems.*as numbers/);
    const [p] = previewProblems(addition, 1, 7);
    const [a, b] = p.prompt.slice(0, -1).split('+').map(Number);
    expect(p.answer).toBe(String(a + b));
    expect(p.scratchpad).toBe(String(a + b).split('').reverse().join(','));
    // The task's own characters beyond the shared 18 tokens: only '-' (numbers may be negative).
    expect(task!.vocabulary!.tokens.slice(18)).toEqual(['-']);
  });

  it('is deterministic and its split is disjoint (makeSplit, as built-in tasks)', () => {
    expect(previewProblems(addition, 5, 3)).toEqual(previewProblems(addition, 5, 3));
    const task = checkTaskDefinition(addition).task!;
    const split = makeSplit(task, 1, new Rng(1), { warmStart: 300, rl: 300, heldOut: 100 });
    const prompts = new Set([...split.warmStart, ...split.rl, ...split.heldOut].map((p) => p.prompt));
    expect(prompts.size).toBe(700);
  });

  it('refuses each unrunnable definition in words', () => {
    expect(errors({ ...addition, answer: 'a +* b' })).toEqual([expect.stringMatching(/answer: unexpected '\*' at position 3/)]);
    expect(errors({ ...addition, answer: 'a + c' })[0]).toMatch(/'c' is not a declared variable/);
    expect(errors({ ...addition, template: '{a}+{b}={c}' })[0]).toMatch(/\{c\} at position 8 is not a declared variable/);
    expect(errors({ ...addition, template: '{a}=' })[0]).toMatch(/variable b is not in the template/);
    expect(errors({ ...addition, answer: 'cat(a, ">")' })[0]).toMatch(/holds '>'/);
    expect(errors({ ...addition, answer: 'if(a == 50, "", a)' })[0]).toMatch(/the answer is empty at a=50/);
    expect(errors({ ...addition, answer: 'a / (b - 50)' })[0]).toMatch(/division by zero .* at a=\d+, b=50/);
    expect(errors({ ...addition, template: '{a}\u202e+{b}=' })[0]).toMatch(/bidirectional character U\+202E/);
    expect(errors({ ...addition, template: '{a}\u0007{b}=' })[0]).toMatch(/control character U\+0007/);
    expect(errors({ ...addition, template: '{a}é{b}=' })[0]).toMatch(/character 'é' \(U\+00E9\) is not allowed/);
    expect(errors({ ...addition, template: '{a}_{b}=' })[0]).toMatch(/kept for the model's own marks/);
    expect(errors({ ...addition, vars: { a: { min: 0, max: 1e12 }, b: { min: 0, max: 1 } } })[0]).toMatch(/vars\.a\.max/);
    expect(errors({ ...addition, vars: { a: { min: 9, max: 1 }, b: { min: 0, max: 1 } } })[0]).toMatch(/min 9 is above max 1/);
    expect(errors({ ...addition, template: '{a}{b}' + 'x'.repeat(40) })[0]).toMatch(/prompts reach 44 characters; the most is 32/);
    expect(errors({ ...addition, answer: 'pad(a, 60)' })[0]).toMatch(/the answer has 60 characters .*the most is 24/);
    expect(errors({ ...addition, answer: 'pad(a, 10000)' })[0]).toMatch(/would have 10000 characters; the most is 64/);
    expect(errors({ kind: 'generator', title: 'x' })[0]).toMatch(/template/);
    expect(errors({ ...addition, extra: 1 })[0]).toMatch(/extra|Unrecognized/i);
  });

  it('refuses a template whose problem space cannot fill the split, with the numbers', () => {
    const small = { ...addition, vars: { a: { min: 1, max: 5 }, b: { min: 1, max: 5 } } };
    expect(errors(small, { labeledPool: 10, rlPool: 10, heldOut: 10 })[0]).toMatch(/needs 30 distinct problems .* but the task has only 25/);
    // Two variables that can spell the same prompt ("1"+"11" and "11"+"1"): counted exactly.
    const clash: TaskDefinition = { kind: 'generator', title: 'clash', template: '{a}{b}=', vars: { a: { min: 1, max: 11 }, b: { min: 1, max: 11 } }, answer: 'a' };
    expect(checkTaskDefinition(clash).task!.problemCount(1)).toBeLessThan(121);
  });

  it('counts the distinct prompts of a template whose values can run together, past the enumerated sizes, and refuses a split they cannot fill', () => {
    // "{a}{b}=" writes a=1, b=23 and a=12, b=3 as one prompt: 20,100 assignments, 18,390 prompts.
    const runTogether: TaskDefinition = { kind: 'generator', title: 'run together', template: '{a}{b}=', vars: { a: { min: 0, max: 200 }, b: { min: 0, max: 99 } }, answer: 'a+b' };
    const { task, findings } = checkTaskDefinition(runTogether);
    expect(task!.problemCount(1)).toBe(18_390);
    expect(findings.find((f) => f.severity === 'note')!.message).toMatch(/^18390 distinct problems \(the variables make 20100, but 1710 share a prompt/);
    expect(errors(runTogether, { labeledPool: 16_000, rlPool: 3_000, heldOut: 1_100 })[0]).toMatch(/needs 20100 distinct problems .* but the task has only 18390/);
    // So a split never waits on prompts that do not exist: it fills to the count, or is refused first.
    expect(() => makeSplit(task!, 1, new Rng(1), { warmStart: 16_000, rl: 3_000, heldOut: 1_100 })).toThrow(/has only 18390 distinct problems/);
    // Too many to count one by one within the check's budget: refused in words, with what would help.
    const wide = { ...runTogether, vars: { a: { min: 0, max: 2000 }, b: { min: 0, max: 999 } } };
    expect(errors(wide)[0]).toMatch(/two problems can share a prompt .* these ranges make 2,001,000 problems, past the [\d,]+ it can count: put a character such as ','/);
    // A character between them proves the prompts distinct: no counting, the full count.
    expect(checkTaskDefinition({ ...wide, template: '{a},{b}=' }).task!.problemCount(1)).toBe(2_001_000);
  });

  it('looks names up as the definition\'s own keys: {constructor} is not a declared variable', () => {
    expect(errors({ ...addition, template: '{a}+{b}={constructor}' })[0]).toMatch(/\{constructor\} at position 8 is not a declared variable/);
    expect(errors({ ...addition, answer: 'a + constructor' })[0]).toMatch(/'constructor' is not a declared variable/);
    expect(errors({ ...addition, answer: 'a + toString' })[0]).toMatch(/'toString' is not a declared variable/);
  });

  it('quotes a refused title with its control and bidirectional characters as code points, never raw', () => {
    const title = 'Sums \u202edetpecca si ksat sihT';
    const parsed = parseSpec({ ...PRESETS.quick.spec, task: { id: 'custom', difficulty: 1, scratchpad: 'never', definition: { ...addition, title } } });
    expect(parsed.ok).toBe(false);
    const said = parsed.ok ? '' : parsed.errors.join('\n');
    expect(said).toContain('Sums <U+202E>detpecca si ksat sihT: the title or description: invisible or bidirectional character U+202E is not allowed');
    // eslint-disable-next-line no-control-regex -- control characters are exactly what must not be quoted raw
    expect(said).not.toMatch(/[\u202a-\u202e\u2066-\u2069\u0000-\u001f]/);
    expect(errors({ ...addition, template: '{a\u202e\u001b}+{b}=' })[0]).toContain('got "{a<U+202E><U+001B>}"');
  });

  it('refuses a task whose check would pass its work budget, in words, before making any problem', () => {
    // The cost is a bound proven from the rules (cost.ts), so the refusal is the same on any machine.
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `reverse(join(digits(a*${i + 3}+b), "-"))`).join(',');
    const heavy: TaskDefinition = { ...addition, vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 199 } }, answer: `len(cat(${terms(6)}))`, scratchpad: undefined };
    const message = errors(heavy)[0];
    expect(message).toMatch(/checking this task would take up to [\d,]+ steps \(2,004 problems of up to \d+ steps each\); a check may take at most 1,500,000: shorten/);
    expect(CHECK_LIMITS.work).toBe(1_500_000);
    // Five of the six terms fit: sampled, not every problem, within the budget.
    const lighter = { ...heavy, answer: `len(cat(${terms(5)}))` };
    expect(errors(lighter)).toEqual([]);
    expect(checkTaskDefinition(lighter).findings.find((f) => f.severity === 'note')!.message).toMatch(/longest of 2004 sampled problems/);
  });

  it('adopts a check made elsewhere without probing again: the Task is rebuilt from its facts', () => {
    const def: TaskDefinition = { ...addition, title: 'adopted' };
    const summary = checkSummary(structuredClone(def));
    expect(summary.facts).toEqual(expect.objectContaining({ count: 8100, completionMax: 9, numeric: true }));
    // A structured clone, as a worker's answer arrives: facts that differ show the probe did not run again.
    const other: TaskDefinition = { ...addition, title: 'adopted elsewhere' };
    adoptCheck(other, { findings: [], facts: { count: 77, completionMax: 9, numeric: true, note: '77 distinct problems (adopted)' } });
    const rebuilt = checkTaskDefinition(structuredClone(other));
    expect(rebuilt.task!.problemCount(1)).toBe(77);
    expect(rebuilt.findings.map((f) => f.message)).toContain('77 distinct problems (adopted)');
    // A refusal adopted is a refusal here too.
    const refused: TaskDefinition = { ...addition, title: 'refused elsewhere' };
    adoptCheck(refused, { findings: [{ severity: 'error', message: 'checking this task would take up to 9 steps' }] });
    expect(errors(structuredClone(refused))).toEqual(['checking this task would take up to 9 steps']);
  });

  it('warns, with the numbers, when the held-out set is too small to measure', () => {
    const warnings = checkTaskDefinition(addition, { labeledPool: 100, rlPool: 100, heldOut: 25 }).findings.filter((f) => f.severity === 'warning');
    expect(warnings[0].message).toMatch(/only 25 held-out problems: one more right answer moves accuracy by 4\.0 points.*±20 points/);
  });
});

describe('a data task', () => {
  const rows = Array.from({ length: 40 }, (_, i) => ({ prompt: `n${i}?`, answer: String(i % 7) }));
  const data: TaskDefinition = { kind: 'data', title: 'mod 7', rows };

  it('compares answers as numbers when every answer is an integer', () => {
    const task = checkTaskDefinition({ ...data, rows: [...rows, { prompt: 'z?', answer: '007' }] }).task!;
    expect(task.normaliseAnswer!(' 07 ')).toBe('7');
    expect(task.normaliseAnswer!('-0')).toBe('0');
    expect(task.normaliseAnswer!('')).toBeNull();
    expect(task.problemCount(1)).toBe(41);
    const texty = checkTaskDefinition({ ...data, rows: [...rows, { prompt: 'z?', answer: 'Seven' }] }).task!;
    expect(texty.normaliseAnswer!('07')).toBe('07');
    expect(texty.normaliseAnswer!('seven')).toBe('seven'); // case is kept
  });

  it('names the rows that cannot run', () => {
    const bad = [...rows, { prompt: 'n3?', answer: '4' }, { prompt: 'q?', answer: ' ' }, { prompt: 'caf\u00e9', answer: '1' }];
    const found = errors({ ...data, rows: bad });
    expect(found).toContain('prompt on row 41 repeats row 4 with another answer ("4" against "3")');
    expect(found).toContain('answer empty on row 42');
    expect(found.some((m) => /character 'é' .* not allowed.*the prompt on row 43/.test(m))).toBe(true);
  });

  it('warns that a small file can be memorised, with the numbers', () => {
    const w = checkTaskDefinition(data, { labeledPool: 20, rlPool: 10, heldOut: 10 }).findings.filter((f) => f.severity === 'warning').map((f) => f.message);
    expect(w.some((m) => /only 40 rows: .* memorise 20 warm-start problems/.test(m))).toBe(true);
  });

  it('refuses more characters than the vocabulary holds', () => {
    // '!' to 'z' is 90 characters; less $ ^ _ > (refused) is 86; less 0-9 + = , R (shared) is 72 of its own.
    const wide = Array.from({ length: 90 }, (_, i) => ({ prompt: String.fromCharCode(0x21 + i) + '=', answer: '1' })).filter((r) => !'$^_>'.includes(r.prompt[0]));
    expect(errors({ ...data, rows: wide })[0]).toMatch(/the rows use 72 characters beyond the 18 shared tokens; the vocabulary holds at most 64/);
  });
});

describe('taskContentHash', () => {
  it('ignores key order and changes with the content', () => {
    const reordered = { answer: addition.answer, vars: addition.vars, template: addition.template, title: addition.title, kind: 'generator', scratchpad: addition.scratchpad } as TaskDefinition;
    expect(taskContentHash(reordered)).toBe(taskContentHash(addition));
    expect(taskContentHash({ ...addition, answer: 'a-b' })).not.toBe(taskContentHash(addition));
    expect(taskContentHash(addition)).toMatch(/^[0-9a-f]{16}$/);
  });
});
