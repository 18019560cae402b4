/**
 * How long a preset takes in this lab, measured end to end from its link (backend check, warm
 * start or shipped weights, every RL step), with the machine it was measured on. One table, so a
 * faster engine only needs new figures here (issue 20 is making it faster; issue 23 found the old
 * card figures, from a quiet machine in the CLI, below what a fresh machine measures).
 *
 * A preset not listed shows its own `runtime` text (presets.ts), which says where it comes from.
 */

export interface PresetRuntime {
  /** Measured range (one figure where measured once). */
  range: string;
  /** The machine it was measured on, in the words a student needs to compare their own (no browser version, no backend name). */
  machine: string;
  /** The same machine as measured (browser version and backend), for a tooltip and the record. */
  measuredOn: string;
}

/**
 * Issue 32 (2026-12-02), with the lab's own wasm kernels (docs/BENCHMARKS.md, "Issue 32: the
 * targets"): Debian served Chromium 150 to this machine, quiet (load average 1.3-3.2 at the link,
 * mostly the benchmark's own build and browser), not freshly booted. Each figure is `npm run bench
 * -- --page --page-query '?v=1&preset=ID'`; scripts/docs-figures.test.ts checks each range against
 * the last timing in bench/results/page.json. Chromium 156 on the same machine: peers-teach 32.8
 * and 34.7 s, inside 150's spread.
 *
 * Issue 29, problem 9: a student's card read "Chromium 156, wasm", which tells a student nothing
 * about their own computer. The card says what kind of computer; the measured facts stay beside it.
 */
const QUIET_2_CORE_150 = {
  machine: 'an ordinary computer with 2 processor cores and no graphics card',
  measuredOn: 'a quiet 2-core machine without a GPU, Chromium 150, wasm backend',
};

export const PRESET_RUNTIMES: Readonly<Record<string, PresetRuntime>> = {
  // 12.7 s (14.4 and 13.0 s on Chromium 156 before issue 32's kernels, docs/BENCHMARKS.md, "Issue 20").
  collapse: { range: '13 s', ...QUIET_2_CORE_150 },
  // 120 steps: 22.5, 15.6 and 16.9 s (the last two alternating with the session's first build: 18.3 and 17.8 s).
  'peers-learn': { range: '16-23 s', ...QUIET_2_CORE_150 },
  quick: { range: '5 s', ...QUIET_2_CORE_150 }, // 4.8 s (6.2 and 4.9 s before issue 32's second kernels)
  length: { range: '11 s', ...QUIET_2_CORE_150 }, // 10.6 s (17.1 and 15.1 s before them)
  // 25.9 s (36.4 and 35.6 s before them; issue 30 asks for about a minute).
  overlap: { range: '26 s', ...QUIET_2_CORE_150 },
  // 28.9 s (45.5 s before them; issue 32's target: 60 s).
  families: { range: '29 s', ...QUIET_2_CORE_150 },
  // 29.5, 30.0 and 34.2 s, then 32.6 and 35.0 s on a fresh clone (44.4 s before them; issue 32's target: 30 s).
  'peers-teach': { range: '30-35 s', ...QUIET_2_CORE_150 },
};

export function presetRuntime(presetId: string): PresetRuntime | null {
  return PRESET_RUNTIMES[presetId] ?? null;
}

/** The card's line: the measured range and its machine, or the preset's own figure. */
export function runtimeText(presetId: string, fallback: string): string {
  const r = presetRuntime(presetId);
  return r ? `${r.range} on ${r.machine}, from its link to the last step` : fallback;
}
