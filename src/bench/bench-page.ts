/**
 * The browser half of `npm run bench -- --browser`: runs the shared cohort benchmark on the
 * backend named by ?backend= (on the main thread: the numbers measure tfjs, not messaging) and
 * publishes the rows on window.__bench for the Playwright driver. Text only, no HTML sinks.
 */
import { chooseBackend, isBackendName } from '../engine/backend';
import { benchmarkCohort, type BenchRow } from '../core/benchmark';
import { DEFAULT_PRESET, getPreset } from '../core/experiment/presets';

declare global {
  interface Window {
    __bench?: { rows: (BenchRow & { adapter: string | null })[]; error?: string };
  }
}

const status = document.getElementById('status')!;
const out = document.getElementById('result')!;

async function main(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const wanted = params.get('backend') ?? 'webgpu';
  const repeats = Math.min(50, Math.max(1, Number(params.get('repeats') ?? 5)));
  if (!isBackendName(wanted)) throw new Error(`unknown backend ${wanted}`);
  const report = await chooseBackend(wanted);
  if (report.backend !== wanted) throw new Error(`${wanted} is not available here: ${report.reason ?? 'unknown reason'}`);
  status.textContent = `running on ${report.backend}${report.adapter ? ` (${report.adapter})` : ''}`;
  const rows = (await benchmarkCohort(getPreset(DEFAULT_PRESET)!.spec, repeats)).map((r) => ({ ...r, adapter: report.adapter }));
  out.textContent = JSON.stringify(rows, null, 1);
  status.textContent = 'done';
  window.__bench = { rows };
}

main().catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  status.textContent = `error: ${message}`;
  window.__bench = { rows: [], error: message };
});
