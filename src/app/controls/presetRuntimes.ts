/**
 * How long a preset takes in this lab, measured end to end from its link (backend check, warm
 * start or shipped weights, every RL step), with the machine it was measured on. One table, so a
 * faster engine only needs new figures here; a figure from the CLI on a quiet machine would read
 * below what a fresh machine measures in the page, so every figure is the page's own.
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
 * Measured on 2026-12-02 with the lab's own wasm kernels (docs/BENCHMARKS.md, "Time to phenomenon
 * in Chromium" and "The targets"): Debian's Chromium 150 on the 2-core machine, quiet (load average
 * 1.3-3.2 at the link, mostly the benchmark's own build and browser), not freshly booted. Each
 * figure is `npm run bench -- --page --page-query '?v=1&preset=ID'`; scripts/docs-figures.test.ts
 * checks each range against the last timing in bench/results/page.json. Chromium 156 on the same
 * machine: peers-teach 32.8 and 34.7 s, inside 150's spread.
 *
 * The card says what kind of computer in words a student can compare with their own ("Chromium
 * 156, wasm" tells a student nothing); the measured facts stay beside it.
 */
const QUIET_2_CORE_150 = {
  machine: 'an ordinary computer with 2 processor cores and no graphics card',
  measuredOn: 'a quiet 2-core machine without a GPU, Chromium 150, wasm backend',
};

export const PRESET_RUNTIMES: Readonly<Record<string, PresetRuntime>> = {
  // 12.7 s.
  collapse: { range: '13 s', ...QUIET_2_CORE_150 },
  // 120 steps: 22.5, 15.6 and 16.9 s (the last two alternating with the session's first build: 18.3 and 17.8 s).
  'peers-learn': { range: '16-23 s', ...QUIET_2_CORE_150 },
  quick: { range: '5 s', ...QUIET_2_CORE_150 }, // 4.8 s
  length: { range: '11 s', ...QUIET_2_CORE_150 }, // 10.6 s
  // 25.9 s.
  overlap: { range: '26 s', ...QUIET_2_CORE_150 },
  // 28.9 s (the target: at most 60 s).
  families: { range: '29 s', ...QUIET_2_CORE_150 },
  // 29.5, 30.0 and 34.2 s, then 32.6 and 35.0 s on a fresh clone (the target: 30 s).
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
