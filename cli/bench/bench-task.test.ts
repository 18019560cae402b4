/**
 * BENCHMARKS' section on a task of one's own is generated from bench/results/task.json (one
 * source for every figure), and the CSV the bench hands the page is 2,000 distinct rows.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvRows, taskSection, type TaskTiming } from './bench-task';
import { parseTaskFile } from '../../src/core/tasks/custom/index';

describe('npm run bench -- --task', () => {
  it("BENCHMARKS' task section is the one its results file makes", () => {
    const timings = JSON.parse(readFileSync('bench/results/task.json', 'utf8')) as TaskTiming[];
    const doc = readFileSync('docs/BENCHMARKS.md', 'utf8');
    const section = /<!-- task -->\n([\s\S]*?)\n<!-- \/task -->/.exec(doc)?.[1];
    expect(section).toBe(taskSection(timings));
  });

  it('hands the page 2,000 distinct rows', () => {
    const parsed = parseTaskFile('sums.csv', csvRows());
    expect(parsed.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(parsed.definition?.kind === 'data' && new Set(parsed.definition.rows.map((r) => r.prompt)).size).toBe(2000);
  });
});
