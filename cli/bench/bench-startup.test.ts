/**
 * BENCHMARKS' start-up section is made from bench/results/startup.json (one source for its
 * figures), and the section reads a run's phases as the time each took after the one before.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startupSection, type StartupTiming } from './bench-startup';

describe('npm run bench -- --startup', () => {
  it("BENCHMARKS' start-up section is the one its results file makes", () => {
    const runs = JSON.parse(readFileSync('bench/results/startup.json', 'utf8')) as StartupTiming[];
    const doc = readFileSync('docs/BENCHMARKS.md', 'utf8');
    expect(/<!-- startup -->\n([\s\S]*?)\n<!-- \/startup -->/.exec(doc)?.[1]).toBe(startupSection(runs));
  });

  it('gives each phase the seconds after the one before, a dash for a phase the run did not have, and the medians', () => {
    const run = (firstStepS: number, marks: StartupTiming['marks']): StartupTiming => ({ query: '', browser: 'Chromium 1', backend: 'wasm', startS: 0.5, firstStepS, doneS: 10, marks, load: 1, date: '2026-12-04' });
    const text = startupSection([
      run(2.1, [{ phase: 'backend', atMs: 700 }, { phase: 'base', atMs: 1150 }, { phase: 'step', atMs: 1350 }]),
      run(2.5, []),
      run(2.3, []),
    ]);
    expect(text).toContain('| `/` | Chromium 1 | wasm | 0.5 | 0.70 | – | 0.45 | 0.20 | 2.1 | 10.0 | 1 |');
    expect(text).toContain('- `/` on Chromium 1: median first RL step 2.3 s, median end 10.0 s, over 3 runs.');
  });
});
