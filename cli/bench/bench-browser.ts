/**
 * The browser halves of `npm run bench`:
 *
 * runBrowserBench: builds bench.html (`vite build` into a temporary folder: a snapshot of the
 * sources, with no dev-server reloads mid-run when files change), serves it with
 * `vite preview` (cross-origin isolated, as the app), opens it in the system Chromium through
 * Playwright once per backend, and collects window.__bench (rows of the same measurement as
 * Node: src/core/benchmark).
 *
 * runBrowserSoak: `npm run soak -- --browser`, the same page in soak mode (src/bench/soak-page.ts).
 *
 * runPageBench (--page): time to phenomenon. Builds the app (`vite build` into a temporary
 * folder, as the e2e tests do, then `vite preview`), opens a link with a fresh browser profile,
 * presses Start as soon as it is enabled, and records seconds from opening the page to the first
 * RL step shown and to the end of the run. A measurement, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type Page } from '@playwright/test';
import { findChromium } from '../../scripts/find-chromium.mjs';
import type { BenchRow } from '../../src/core/benchmark/index';
import type { SoakGlobals, SoakProbe } from '../../src/bench/soakTypes';
import type { SoakSample } from './soak-lib';
import { summariseTrace, type ThreadProfile } from './trace-profile';

const ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The page's globals as the callbacks passed to page.evaluate see them. Those callbacks run in
 * Chromium, but this file compiles with Node's types (tsconfig.node.json: no DOM), so they reach
 * the page through globalThis with this type (bench.html sets __bench: src/bench/bench-page.ts).
 */
type InPage = {
  __bench?: { rows: BenchRow[]; error?: string };
  document: { querySelector(selector: string): { disabled?: boolean } | null };
};

const firstLine = (e: unknown) => (e instanceof Error ? e.message.split('\n')[0] : String(e));

export interface BrowserBenchOptions {
  cases: string[];
  repeats: number;
  warmup: number;
  /** Per backend (default 30 min). */
  timeoutMs?: number;
}

/**
 * Build bench.html into a temporary folder, serve it with `vite preview` (cross-origin isolated and
 * under the page's Content-Security-Policy, as the app), launch the system Chromium, and give `fn`
 * the page's URL and the browser; everything is torn down after.
 */
async function withBenchPage<T>(executablePath: string, fn: (benchUrl: string, browser: Browser) => Promise<T>): Promise<T> {
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-bench-'));
  try {
    console.error('browser: vite build bench.html ...');
    // Not minified: the minifier breaks tfjs-wasm's threaded variant on the page's main thread ("e is
    // not defined" in its pthread workers; vite.config.ts does the same for the app's worker).
    await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: false, rolldownOptions: { input: { bench: resolve('bench.html') } } } });
    const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 4195, strictPort: false } });
    try {
      const url = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4195/';
      const browser = await chromium.launch({ executablePath, args: ARGS, headless: true });
      try {
        return await fn(`${url}bench.html`, browser);
      } finally {
        await browser.close();
      }
    } finally {
      await closePreview(server);
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function runBrowserBench(
  backends: string[],
  opts: BrowserBenchOptions,
): Promise<{ rows: BenchRow[]; browser: string; skipped: string[] }> {
  const executablePath = findChromium();
  if (!executablePath) return { rows: [], browser: 'none', skipped: ['browser: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)'] };
  return withBenchPage(executablePath, async (benchUrl, browser) => {
    const rows: BenchRow[] = [];
    const skipped: string[] = [];
    for (const b of backends) {
      console.error(`browser: benchmarking ${b} ...`);
      const page = await browser.newPage();
      page.on('console', (m) => {
        if (m.text().startsWith('bench: ')) console.error(`browser: ${m.text().slice(7)}`);
      });
      try {
        const q = new URLSearchParams({ backend: b, cases: opts.cases.join(','), repeats: String(opts.repeats), warmup: String(opts.warmup) });
        await page.goto(`${benchUrl}?${q}`);
        await page.waitForFunction(() => (globalThis as unknown as InPage).__bench !== undefined, undefined, { timeout: opts.timeoutMs ?? 30 * 60_000, polling: 1000 });
        const result = await page.evaluate(() => (globalThis as unknown as InPage).__bench!);
        if (result.error) skipped.push(`browser ${b}: ${result.error}`);
        rows.push(...result.rows);
      } catch (e) {
        skipped.push(`browser ${b}: ${firstLine(e)}`);
      } finally {
        await page.close();
      }
    }
    return { rows, browser: `Chromium ${browser.version()}`, skipped };
  });
}

export interface BrowserSoakOptions {
  preset: string;
  steps: number;
  every: number;
  backend: string;
  /** Stop the run after the first step that ends past this many minutes (undefined: run every step). */
  minutes?: number;
  timeoutMs: number;
  log: (line: string) => void;
}

export interface BrowserSoak {
  /** memory: the page's JS heap (CDP Performance.getMetrics JSHeapUsedSize) right after a forced GC. */
  samples: SoakSample[];
  /** tfjs-webgpu's allocated buffer bytes at each sample (null off webgpu). */
  gpuBytes: (number | null)[];
  browser: string;
  /** RL steps run (fewer than asked when --minutes stopped the run). */
  steps: number;
  seconds: number;
  warmStarts: string[];
}

/**
 * `npm run soak -- --browser`: bench.html in soak mode (src/bench/soak-page.ts). At each sample the
 * page awaits __soakSample, which forces a garbage collection (HeapProfiler.collectGarbage) and
 * reads JSHeapUsedSize through the DevTools protocol, so the heap holds only what is alive.
 */
export async function runBrowserSoak(opts: BrowserSoakOptions): Promise<BrowserSoak> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  return withBenchPage(executablePath, async (benchUrl, browser) => {
    const page = await browser.newPage();
    page.on('console', (m) => {
      if (m.text().startsWith('bench: ')) opts.log(`browser: ${m.text().slice(7)}`);
      // The page has no icon: Chromium's request for /favicon.ico is answered 404.
      else if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) opts.log(`browser console: ${m.text()}`);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const samples: SoakSample[] = [];
    const gpuBytes: (number | null)[] = [];
    const t0 = performance.now();
    await page.exposeFunction('__soakSample', async (probe: SoakProbe) => {
      await cdp.send('HeapProfiler.collectGarbage');
      const { metrics } = await cdp.send('Performance.getMetrics');
      const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? null;
      samples.push({ step: probe.step, tensors: probe.tensors, tensorBytes: probe.tensorBytes, memory: heap });
      gpuBytes.push(probe.gpuBytes);
      const mb = (b: number | null) => (b === null ? '-' : `${(b / 1048576).toFixed(1)} MB`);
      opts.log(`step ${probe.step}: ${probe.tensors} tensors, js heap ${mb(heap)}, gpu buffers ${mb(probe.gpuBytes)}, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    });
    const q = new URLSearchParams({ mode: 'soak', backend: opts.backend, preset: opts.preset, steps: String(opts.steps), every: String(opts.every) });
    if (opts.minutes !== undefined) q.set('minutes', String(opts.minutes));
    await page.goto(`${benchUrl}?${q}`);
    await page.waitForFunction(() => (globalThis as unknown as SoakGlobals).__soak !== undefined, undefined, { timeout: opts.timeoutMs, polling: 1000 });
    const outcome = await page.evaluate(() => (globalThis as unknown as SoakGlobals).__soak!);
    if (outcome.error) throw new Error(`the page stopped: ${outcome.error}`);
    return {
      samples,
      gpuBytes,
      browser: `Chromium ${browser.version()}`,
      steps: outcome.steps ?? opts.steps,
      seconds: outcome.seconds ?? (performance.now() - t0) / 1000,
      warmStarts: outcome.warmStarts ?? [],
    };
  });
}

async function closePreview(server: PreviewServer): Promise<void> {
  await server.close();
}

export interface PageTiming {
  /** The query string opened ('' = the default link). */
  query: string;
  browser: string;
  /** What the page's backend status said once detected, e.g. "webgpu (swiftshader)". */
  backend: string;
  /** Seconds from page.goto to: Start enabled, the first RL step shown, the end of the run. */
  startEnabledS: number;
  firstStepS: number | null;
  doneS: number | null;
  /** RL steps shown at the end (or when the timeout stopped the wait). */
  steps: number;
  timedOut: boolean;
  date: string;
  /** The lab's own backend measurement line, e.g. "wasm (threaded simd, 1 thread): 140 ms/step; …". */
  measurement?: string;
  /** Seconds per RL step shown from the first step to the end (held-out evaluations included). */
  secondsPerStep?: number | null;
  /** The machine's 1-minute load average when the run ended (the figures are wall-clock). */
  load?: number;
  /** --page-profile: where each thread spent the profiled seconds (trace-profile.ts). */
  profile?: ThreadProfile[];
  /** The page's own start-up timeline (src/app/store/progress.ts, StartupTimeline): ms from Start to each phase. */
  startup?: { openToStartMs: number | null; marks: { phase: string; atMs: number }[] };
}

/** Function names totalled inclusively in a page profile: the readback under tfjs-wasm's Slice and the like. */
const PROFILE_INCLUSIVE = ['readSync', 'slice', 'runKernel', 'cohortStep', 'grpoUpdateStackOnDevice', 'sampleStack'];

async function stepShown(page: Page): Promise<number> {
  return Number((await page.getByTestId('rl-step').getAttribute('data-step')) ?? 0);
}

/** --page: build, serve, open `query` in a fresh profile, press Start, time the run. */
export async function runPageBench(
  query: string,
  timeoutMs: number,
  log: (line: string) => void,
  opts: { profileSeconds?: number } = {},
): Promise<PageTiming> {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-page-'));
  log('page: vite build ...');
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 4190, strictPort: false } });
  const base = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4190/';
  // A new browser with its own temporary profile: nothing cached (compiled shaders, storage).
  const browser = await chromium.launch({ executablePath, args: ARGS, headless: true });
  try {
    const page = await (await browser.newContext()).newPage();
    const t0 = performance.now();
    const since = () => (performance.now() - t0) / 1000;
    await page.goto(`${base}${query}`);
    const start = page.getByTestId('start');
    await start.waitFor({ state: 'visible', timeout: timeoutMs });
    await page.waitForFunction(() => {
      const b = (globalThis as unknown as InPage).document.querySelector('[data-testid="start"]');
      return b !== null && !b.disabled;
    }, undefined, { timeout: timeoutMs, polling: 100 });
    const startEnabledS = since();
    await start.click();
    log(`page: Start pressed at ${startEnabledS.toFixed(1)} s`);
    const backendNow = async () => ((await page.getByTestId('backend-status').textContent()) ?? '').replace(/^Backend:\s*/, '');
    let firstStepS: number | null = null;
    let doneS: number | null = null;
    let lastLogged = 0;
    let profile: ThreadProfile[] | undefined;
    let startup: PageTiming['startup'];
    while (since() * 1000 < timeoutMs) {
      const step = await stepShown(page);
      if (firstStepS === null && step >= 1) {
        firstStepS = since();
        log(`page: first RL step shown at ${firstStepS.toFixed(1)} s`);
        const json = await page.getByTestId('startup-timeline').getAttribute('data-timeline', { timeout: 5000 }).catch(() => null);
        if (json) {
          const t = JSON.parse(json) as NonNullable<PageTiming['startup']>;
          startup = { openToStartMs: t.openToStartMs, marks: t.marks };
          log(`page: start-up ${startup.marks.map((m) => `${m.phase} ${(m.atMs / 1000).toFixed(2)} s`).join(', ')}`);
        }
      }
      if (opts.profileSeconds && !profile && step >= 3) {
        // Past the first steps (compilation, optimiser state): sample every thread's JavaScript.
        await browser.startTracing(page, { categories: ['__metadata', 'disabled-by-default-v8.cpu_profiler', 'v8'] });
        await page.waitForTimeout(opts.profileSeconds * 1000);
        const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
        profile = summariseTrace(trace, PROFILE_INCLUSIVE);
        log(`page: profiled ${opts.profileSeconds} s from RL step ${step} to ${await stepShown(page)}`);
      }
      if ((await page.getByTestId('run-phase').getAttribute('data-phase')) === 'done') {
        doneS = since();
        break;
      }
      if (since() - lastLogged > 30) {
        lastLogged = since();
        log(`page: ${since().toFixed(0)} s, RL step ${step}`);
      }
      await page.waitForTimeout(250);
    }
    const steps = await stepShown(page);
    const measurement = ((await page.getByTestId('backend-choice').first().textContent({ timeout: 1000 }).catch(() => null)) ?? '').trim();
    return {
      query,
      browser: `Chromium ${browser.version()}`,
      backend: await backendNow(),
      measurement: measurement || undefined,
      load: Math.round(loadavg()[0] * 100) / 100,
      secondsPerStep: doneS != null && firstStepS != null && steps > 1 ? (doneS - firstStepS) / (steps - 1) : null,
      profile,
      startup,
      startEnabledS,
      firstStepS,
      doneS,
      steps,
      timedOut: doneS === null,
      date: new Date().toISOString().slice(0, 10),
    };
  } finally {
    await browser.close();
    await closePreview(server);
    rmSync(outDir, { recursive: true, force: true });
  }
}
