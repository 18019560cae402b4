import { describe, expect, it } from 'vitest';
import { Rng } from '../../random';
import { makeSplit } from '../index';
import { getPreset, DEFAULT_PRESET } from '../../experiment/presets';
import { GALLERY } from './gallery';
import { checkTaskDefinition, previewProblems, taskContentHash } from './index';

const sizes = getPreset(DEFAULT_PRESET)!.spec.data;

describe('the gallery', () => {
  it('has at least six tasks, kebab-case ids, each once', () => {
    expect(GALLERY.length).toBeGreaterThanOrEqual(6);
    const ids = GALLERY.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  it.each(GALLERY.map((t) => [t.id, t] as const))('%s checks clean with the default experiment\'s data sizes, and its split is disjoint', (_id, t) => {
    const { task, findings } = checkTaskDefinition(t.definition, sizes);
    expect(findings.filter((f) => f.severity !== 'note')).toEqual([]);
    expect(task).toBeDefined();
    expect(task!.problemCount(1)).toBeGreaterThanOrEqual(sizes.labeledPool + sizes.rlPool + sizes.heldOut);
    const split = makeSplit(task!, 1, new Rng(1), { warmStart: sizes.labeledPool, rl: sizes.rlPool, heldOut: sizes.heldOut });
    const prompts = new Set([...split.warmStart, ...split.rl, ...split.heldOut].map((p) => p.prompt));
    expect(prompts.size).toBe(sizes.labeledPool + sizes.rlPool + sizes.heldOut);
    // A scratchpad mode other than 'never' needs a scratchpad rule to show.
    if (t.scratchpad !== 'never') expect(t.definition.scratchpad).toBeTruthy();
    expect(previewProblems(t.definition, 5, 1)).toHaveLength(5);
  });

  it('keeps its texts bounded and plain', () => {
    for (const t of GALLERY) {
      expect(t.forStudents.length, t.id).toBeGreaterThan(150);
      expect(t.forStudents.length, t.id).toBeLessThanOrEqual(600);
      expect(t.definition.title.length, t.id).toBeLessThanOrEqual(40);
      expect(t.definition.description?.length ?? 0, t.id).toBeGreaterThan(0);
      // Plain words: no markup, no spec fields a student would have to know.
      expect(t.forStudents, t.id).not.toMatch(/[<>{}`_]|onMiss|warmStart|scratchpad:/);
      // Sentences of readable length (a 15-year-old's paragraph): none over 45 words.
      for (const s of t.forStudents.split(/(?<=[.?!:])\s+/)) expect(s.split(/\s+/).length, `${t.id}: ${s}`).toBeLessThanOrEqual(45);
    }
  });

  it('gives every task its own content hash, so warm-start caches and links never mix two tasks', () => {
    const hashes = GALLERY.map((t) => taskContentHash(t.definition));
    expect(new Set(hashes).size).toBe(GALLERY.length);
    for (const h of hashes) expect(h).toMatch(/^[0-9a-f]{16}$/);
  });
});
