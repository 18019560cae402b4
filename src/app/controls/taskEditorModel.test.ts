import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { GALLERY } from '../../core/tasks/custom/gallery';
import { EMPTY_FIELDS, EXAMPLE_DATA, EXAMPLE_GENERATOR, NOTHING_WRITTEN, completionOf, dataOf, dataTextOf, editorStart, fieldsOf, generatorOf, readVars, reviewTask } from './taskEditorModel';

const quick = PRESETS.quick.spec;

describe('the task editor model', () => {
  it('reads variables written several ways, and names the lines it cannot read', () => {
    expect(readVars('a = 10..99\nb: -5 to 5\n\nc 3 1').vars).toEqual({ a: { min: 10, max: 99 }, b: { min: -5, max: 5 }, c: { min: 1, max: 3 } });
    const bad = readVars('a = 10..99\nb = ten..20\na = 1..2');
    expect(bad.findings.map((f) => f.message)).toEqual([
      'variables, line 2: write a variable as "name = min..max", e.g. "a = 10..99"',
      'variables, line 3: "a" is declared twice',
    ]);
    expect(readVars('constructor = 1..2\n__proto__ = 1..3').vars).toEqual({ constructor: { min: 1, max: 2 } });
  });

  it('fields and generator definitions round-trip', () => {
    const { definition } = generatorOf(EXAMPLE_GENERATOR);
    expect(definition).toEqual({
      kind: 'generator',
      title: 'Two-digit addition',
      template: '{a}+{b}=',
      vars: { a: { min: 10, max: 99 }, b: { min: 10, max: 99 } },
      answer: 'a+b',
      scratchpad: 'join(reverse(a+b), ",")',
    });
    expect(fieldsOf(definition!)).toEqual(EXAMPLE_GENERATOR);
    expect(generatorOf({ ...EXAMPLE_GENERATOR, scratchpad: '  ' }).definition).not.toHaveProperty('scratchpad');
  });

  it('opens over a built-in task with nothing in it, and over a task of its own with that task', () => {
    expect(editorStart(undefined)).toEqual({ mode: 'generator', fields: EMPTY_FIELDS, dataTitle: '', dataText: '' });
    expect(Object.values(EMPTY_FIELDS).every((v) => v === '')).toBe(true);
    const counting = GALLERY.find((t) => t.id === 'count-big-digits')!.definition;
    expect(editorStart(counting).fields).toEqual(fieldsOf(counting));
    const data = dataOf('d.csv', EXAMPLE_DATA, 'Mine').definition!;
    expect(editorStart(data)).toEqual({ mode: 'data', fields: EMPTY_FIELDS, dataTitle: 'Mine', dataText: dataTextOf(data as never) });
  });

  it('empty fields are no task yet, said as a note, not an error', () => {
    expect(generatorOf(EMPTY_FIELDS)).toEqual({ definition: null, findings: [NOTHING_WRITTEN] });
    expect(NOTHING_WRITTEN.severity).toBe('note');
    // One field written is a task being written: the check speaks.
    expect(generatorOf({ ...EMPTY_FIELDS, template: '{a}=' }).findings).not.toContain(NOTHING_WRITTEN);
  });

  it('data rows round-trip through the editor text, quotes and commas included', () => {
    const { definition } = dataOf('t.csv', 'prompt,answer,scratchpad\n"3,4,5 max=",5,"3,4,5"\n"say ""hi""=",hi,\n', 'Mine');
    expect(definition).toEqual({ kind: 'data', title: 'Mine', rows: [{ prompt: '3,4,5 max=', answer: '5', scratchpad: '3,4,5' }, { prompt: 'say "hi"=', answer: 'hi' }] });
    expect(dataOf('t.jsonl', dataTextOf(definition as never), 'Mine').definition).toEqual(definition);
  });

  it("a renamed data file's findings still name the file's lines", () => {
    const read = dataOf('t.csv', 'prompt,answer\n1=,1\n\n2=,\n', 'Renamed');
    expect(read.definition?.title).toBe('Renamed');
    const r = reviewTask(quick, read.definition, read.findings);
    expect(r.spec).toBeNull();
    expect(r.findings.find((f) => f.severity === 'error')?.message).toBe('answer empty on line 4');
  });

  it('reviews the example: a preview drawn as a run draws, the split, and the spec it runs', () => {
    const r = reviewTask(quick, generatorOf(EXAMPLE_GENERATOR).definition, []);
    expect(r.problems).toBe(8100);
    expect(r.preview).toHaveLength(8);
    for (const p of r.preview) {
      const [a, b] = p.prompt.slice(0, -1).split('+').map(Number);
      expect(p.answer).toBe(String(a + b));
      expect(completionOf(p)).toBe(`${[...String(a + b)].reverse().join(',')}>${a + b}`);
    }
    expect(r.spec?.task).toMatchObject({ id: 'custom', difficulty: 1 });
    expect(r.spec?.data).toEqual(quick.data);
  });

  it('a small data task shrinks the split and says that a tiny model memorises it', () => {
    const r = reviewTask(quick, dataOf('d.csv', EXAMPLE_DATA + '1<2=,yes\n5<4=,no\n' + Array.from({ length: 40 }, (_, i) => `${i}<${i + 1}=,yes`).join('\n')).definition, []);
    expect(r.spec).not.toBeNull();
    expect(r.spec!.data.heldOut).toBeLessThan(quick.data.heldOut);
    expect(r.findings.some((f) => f.severity === 'warning')).toBe(true);
  });

  it('refuses what cannot run, with the check\'s words and no spec', () => {
    const r = reviewTask(quick, generatorOf({ ...EXAMPLE_GENERATOR, template: '{a}+{c}=' }).definition, []);
    expect(r.spec).toBeNull();
    expect(r.preview).toEqual([]);
    expect(r.findings.filter((f) => f.severity === 'error').length).toBeGreaterThan(0);
    const tiny = reviewTask(quick, generatorOf({ ...EXAMPLE_GENERATOR, vars: 'a = 1..3\nb = 1..3' }).definition, []);
    expect(tiny.spec).toBeNull();
    expect(tiny.findings.map((f) => f.message)).toContain('the task has 9 distinct problems; a run needs at least 20 (warm start, RL and held-out, with no prompt in two)');
  });
});
