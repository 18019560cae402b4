/**
 * The browser half of `npm run bench`: runs the shared RL-step measurement (src/core/benchmark)
 * on the backend named by ?backend=, for the cases in ?cases= (default collapse), on the main
 * thread (the numbers measure tfjs, not messaging), and publishes the rows on window.__bench for
 * the Playwright driver (cli/bench/bench-browser.ts). Progress lines go to the console prefixed
 * "bench:". Text only, no HTML sinks.
 *
 *   bench.html?backend=webgpu&cases=collapse,scaling&repeats=5&warmup=2
 *
 * With ?mode=soak it runs the long-run check of `npm run soak -- --browser` instead
 * (soak-page.ts) and publishes window.__soak.
 */
import { chooseBackend, isBackendName } from '../engine/backend';
import { benchCase, measureCase, parseCases, type BenchRow } from '../core/benchmark/index';
import { runSoakPage } from './soak-page';

declare global {
  interface Window {
    __bench?: { rows: BenchRow[]; error?: string };
  }
}

const status = document.getElementById('status')!;
const out = document.getElementById('result')!;

function intParam(params: URLSearchParams, name: string, fallback: number, min: number, max: number): number {
  const v = Number(params.get(name) ?? fallback);
  return Number.isInteger(v) ? Math.min(max, Math.max(min, v)) : fallback;
}

const params = new URLSearchParams(location.search);
const soak = params.get('mode') === 'soak';

async function main(): Promise<void> {
  const wanted = params.get('backend') ?? 'webgpu';
  const cases = parseCases(params.get('cases') ?? 'collapse');
  const repeats = intParam(params, 'repeats', 5, 1, 100);
  const warmup = intParam(params, 'warmup', 2, 0, 20);
  if (!isBackendName(wanted)) throw new Error(`unknown backend ${wanted}`);
  const report = await chooseBackend(wanted);
  if (report.backend !== wanted) throw new Error(`${wanted} is not available here: ${report.reason ?? 'unknown reason'}`);
  const where = `${report.backend}${report.adapter ? ` (${report.adapter})` : ''}`;
  if (soak) {
    const say = (line: string) => {
      status.textContent = `soak on ${where}: ${line}`;
      console.log(`bench: ${line}`);
    };
    say('started');
    window.__soak = await runSoakPage(params, report, say);
    status.textContent = 'done';
    return;
  }
  const rows: BenchRow[] = [];
  for (const id of cases) {
    const row = await measureCase(benchCase(id), {
      where: 'chromium',
      repeats,
      warmup,
      adapter: report.adapter,
      log: (line) => {
        status.textContent = `running on ${where}: ${line}`;
        console.log(`bench: ${report.backend} ${line}`);
      },
    });
    rows.push(row);
    out.textContent = JSON.stringify(rows, null, 1);
  }
  status.textContent = 'done';
  window.__bench = { rows };
}

main().catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  status.textContent = `error: ${message}`;
  if (soak) window.__soak = { error: message };
  else window.__bench = { rows: [], error: message };
});
