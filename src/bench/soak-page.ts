/**
 * The browser half of `npm run soak -- --browser` (cli/bench/soak.ts drives it through
 * cli/bench/bench-browser.ts runBrowserSoak): bench.html in soak mode,
 *
 *   bench.html?mode=soak&backend=webgpu&preset=quick&steps=300&every=25
 *
 * runs the preset as `npm run soak` does on Node (src/core/benchmark/soak.ts: evaluation every
 * 100 steps) on the page's main thread, with the shipped warm starts (public/warmstarts, as the
 * lab uses them; on SwiftShader a warm start would take longer than the soak). Every `every`
 * steps it reads tf.memory() and awaits window.__soakSample, which the driver exposes: it forces a
 * garbage collection and reads the JS heap through the DevTools protocol while the page waits, so
 * the heap is measured between two steps. With ?minutes=M the run stops after the first step that
 * ends past M minutes (from the run's start; the spec, and so its evaluations, stay those of
 * --steps). At the end window.__soak holds the steps run and seconds, or the error. Progress lines
 * go to the console prefixed "bench:".
 */
import * as tf from '@tensorflow/tfjs';
import type { BackendReport } from '../engine/backend';
import { browserWarmStartCache } from '../engine/warmStartSource';
import { createRun } from '../core/experiment/runner';
import { getPreset } from '../core/experiment/presets';
import { soakSpec } from '../core/benchmark/soak';

import type { SoakOutcome, SoakProbe } from './soakTypes';

export type { SoakOutcome, SoakProbe };

declare global {
  interface Window {
    __soakSample?: (probe: SoakProbe) => Promise<void>;
    __soak?: SoakOutcome;
  }
}

export async function runSoakPage(params: URLSearchParams, report: BackendReport, say: (line: string) => void): Promise<SoakOutcome> {
  const presetId = params.get('preset') ?? 'quick';
  const preset = getPreset(presetId);
  if (!preset) throw new Error(`unknown preset ${presetId}`);
  const steps = Number(params.get('steps') ?? 300);
  const every = Number(params.get('every') ?? 25);
  if (!Number.isInteger(every) || every < 1) throw new Error(`every must be a whole number above 0, got ${params.get('every')}`);
  const minutes = Number(params.get('minutes') ?? Infinity);
  const spec = soakSpec(preset.spec, steps);
  const run = createRun(spec, { backend: report.backend, warmStartCache: browserWarmStartCache({ baseUrl: '/warmstarts/', store: null }) });
  const t0 = performance.now();
  let warmStarts: string[] = [];
  let ran = 0;
  try {
    for await (const ev of run.events()) {
      if (ev.type === 'base') {
        warmStarts = ev.members.map((m) => `${m.id}: ${m.warmStartSource ?? 'unknown'}`);
        say(`warm starts ${warmStarts.join(', ')}; RL from ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
      if (ev.type !== 'step') continue;
      ran = ev.step;
      if (ev.step % every === 0) {
        const m = tf.memory() as tf.MemoryInfo & { numBytesAllocatedInGPU?: number };
        await window.__soakSample?.({ step: ev.step, tensors: m.numTensors, tensorBytes: m.numBytes, gpuBytes: m.numBytesAllocatedInGPU ?? null });
      }
      if (performance.now() - t0 > minutes * 60_000) {
        say(`stopped after step ${ev.step} of ${steps}: ?minutes=${minutes} reached`);
        break;
      }
    }
  } finally {
    run.dispose();
  }
  return { steps: ran, planned: steps, seconds: (performance.now() - t0) / 1000, warmStarts };
}
