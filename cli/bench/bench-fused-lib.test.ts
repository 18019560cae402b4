/**
 * BENCHMARKS' fused section is what bench/results/fused.json makes, and the file's fused counts are
 * what src/engine/fused/budgets.test.ts counts: one source for every count in the table.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FUSED_JSON, fusedSection, fusedSectionProblems, type FusedBench } from './bench-fused-lib';
import { FUSED_STEP_COUNTS, STEP_BUDGETS } from '../../src/engine/fused/budgets';

const file = JSON.parse(readFileSync(FUSED_JSON, 'utf8')) as FusedBench;
const doc = readFileSync('docs/BENCHMARKS.md', 'utf8');

describe("BENCHMARKS' fused section", () => {
  it('is what the results file makes (npx tsx cli/bench/bench-fused-lib.ts --write)', () => {
    expect(fusedSectionProblems('docs/BENCHMARKS.md', doc, file)).toEqual([]);
  });

  it("holds the counts the budgets test asserts, within the budgets", () => {
    const fused = file.rows.filter((r) => r.path === 'fused');
    expect(fused.length).toBeGreaterThan(0);
    const want = FUSED_STEP_COUNTS.mlp!;
    for (const r of fused) {
      for (const k of ['dispatches', 'submits', 'gpuReadbacks', 'kernels'] as const) expect(new Set(r[k]), `${r.preset} ${k}`).toEqual(new Set([want[k]]));
      expect(r.budget).toEqual(STEP_BUDGETS.mlp);
    }
  });

  it('fails on a count, a row or a section the file does not hold', () => {
    const section = fusedSection(file);
    const row = section.split('\n').find((l) => l.startsWith('| fused |'))!;
    const planted = doc.replace(row, row.replace('| 8 |', '| 7 |'));
    expect(planted).not.toBe(doc);
    expect(fusedSectionProblems('docs/BENCHMARKS.md', planted, file)).toEqual(['docs/BENCHMARKS.md: the fused section is not what bench/results/fused.json makes (npx tsx cli/bench/bench-fused-lib.ts --write)']);
    expect(fusedSectionProblems('docs/BENCHMARKS.md', doc.replace('<!-- fused -->', ''), file)).toEqual(['docs/BENCHMARKS.md: no fused section (<!-- fused -->) for bench/results/fused.json']);
    expect(fusedSectionProblems('docs/BENCHMARKS.md', doc, null)).toEqual(['docs/BENCHMARKS.md: has a fused section (<!-- fused -->), but there is no bench/results/fused.json']);
    const more = { ...file, rows: file.rows.map((r) => (r.path === 'fused' ? { ...r, dispatches: r.dispatches.map((d) => d + 1) } : r)) };
    expect(fusedSectionProblems('docs/BENCHMARKS.md', doc, more)).toHaveLength(1);
  });
});
