/** Tests of our kernels: a short whole run's summary, what a result file holds of it. */
import { createRun } from '../../core/experiment/runner';
import { benchCase } from '../../core/benchmark/index';
import type { RunSummary } from '../../core/experiment/events';

/** 3 RL steps and an evaluation of a bench case on wasm; the summary as JSON, its step time zeroed. */
export async function runJson(caseId: 'collapse' | 'peers-teach'): Promise<string> {
  const spec = { ...benchCase(caseId).spec, steps: 3, evalEvery: 3 };
  const run = createRun(spec, { backend: 'wasm' });
  let summary: RunSummary | null = null;
  for await (const e of run.events()) if (e.type === 'done') summary = e.summary;
  run.dispose();
  return JSON.stringify({ ...summary!, medianStepMs: 0 });
}
