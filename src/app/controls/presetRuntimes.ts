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
 * Issue 29, problem 9: a student's card read "Chromium 156, wasm", which tells a student nothing
 * about their own computer. The card says what kind of computer; the measured facts stay beside it.
 */
const FRESH_2_CORE = {
  machine: 'an ordinary computer with 2 processor cores and no graphics card',
  // Debian's Chromium 156 on its wasm backend (issues 20 and 23).
  measuredOn: 'a fresh 2-core machine without a GPU, Chromium 156, wasm backend',
};

/**
 * Issues 30-32 (2026-12-02): Debian served Chromium 150 to this machine, which was quiet (load
 * average 2.4-3.3 at the link, mostly the benchmark's own build and browser), not freshly booted.
 */
const QUIET_2_CORE_150 = {
  machine: FRESH_2_CORE.machine,
  measuredOn: 'a quiet 2-core machine without a GPU, Chromium 150, wasm backend',
};

export const PRESET_RUNTIMES: Readonly<Record<string, PresetRuntime>> = {
  // npm run bench -- --page (docs/BENCHMARKS.md, "Issue 20"): 14.4 s (2 workers) and 13.0 s (?workers=1).
  collapse: { range: '13-15 s', ...FRESH_2_CORE },
  // 120 steps: 16.0 s from its link, 14.8 s on a fresh clone at 0509648 (docs/BENCHMARKS.md, "Issue 20").
  'peers-learn': { range: '15-16 s', ...FRESH_2_CORE },
  // npm run bench -- --page --page-query '?v=1&preset=quick': 6.2 and 4.9 s (docs/BENCHMARKS.md, page table).
  quick: { range: '5-6 s', ...QUIET_2_CORE_150 },
  // The same for '?v=1&preset=length': 17.1 and 15.1 s.
  length: { range: '15-17 s', ...QUIET_2_CORE_150 },
  // '?v=1&preset=overlap': 36.4 and 35.6 s (issue 30 asks for about a minute).
  overlap: { range: '36 s', ...QUIET_2_CORE_150 },
  // '?v=1&preset=families': 45.5 s with the attention's own batched matMul (issue 32's target: 60 s).
  families: { range: '46 s', ...QUIET_2_CORE_150 },
  // 44.4 s with the attention's own batched matMul (issue 32); 42.9 and 43.5 s on Chromium 156 before it (docs/BENCHMARKS.md, "Issue 20").
  'peers-teach': { range: '44 s', ...QUIET_2_CORE_150 },
};

export function presetRuntime(presetId: string): PresetRuntime | null {
  return PRESET_RUNTIMES[presetId] ?? null;
}

/** The card's line: the measured range and its machine, or the preset's own figure. */
export function runtimeText(presetId: string, fallback: string): string {
  const r = presetRuntime(presetId);
  return r ? `${r.range} on ${r.machine}, from its link to the last step` : fallback;
}
