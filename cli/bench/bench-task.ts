/**
 * `npm run bench -- --task ID`: a task of one's own in the app, timed as a student meets it.
 * Builds the app, serves it, opens the default link in a fresh browser profile, and
 *
 *   1. picks gallery task ID in the task picker (one click) and presses Start: seconds from the
 *      pick to the first RL step shown (the warm start is trained in the browser);
 *   2. opens the page's link again in the same profile (IndexedDB kept) and presses Start:
 *      seconds from opening to the first RL step shown (the warm start comes from the cache);
 *   3. opens the task editor and reads a 2,000-row CSV with the file input: milliseconds from
 *      handing the file over to the preview and the split shown.
 *
 * Wall-clock figures of one run each: BENCHMARKS reports them with the browser and the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { chromium, type Page } from '@playwright/test';
import { findChromium } from '../../scripts/find-chromium.mjs';
import { GALLERY } from '../../src/core/tasks/custom/gallery';

export interface TaskTiming {
  task: string;
  browser: string;
  backend: string;
  /** Seconds from picking the task to the first RL step shown (warm start trained in the page). */
  firstStepS: number | null;
  /** The warm-start source the cohort summary named for the first member, e.g. "trained". */
  firstSource: string;
  /** Seconds from opening the link again to the first RL step shown (cached warm start). */
  reopenFirstStepS: number | null;
  reopenSource: string;
  /** Milliseconds from handing a 2,000-row CSV to the file input to its preview and split shown. */
  csvPreviewMs: number;
  load: number;
  date: string;
}

const ARGS = ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** 2,000 rows "a+b=" -> a+b with distinct prompts. */
export function csvRows(n = 2000): string {
  const rows = ['prompt,answer'];
  for (let i = 0; i < n; i++) rows.push(`${Math.floor(i / 50)}+${i % 50}=,${Math.floor(i / 50) + (i % 50)}`);
  return rows.join('\n') + '\n';
}

async function untilFirstStep(page: Page, t0: number, timeoutMs: number): Promise<number | null> {
  while (performance.now() - t0 < timeoutMs) {
    const step = Number((await page.getByTestId('rl-step').getAttribute('data-step')) ?? 0);
    if (step >= 1) return (performance.now() - t0) / 1000;
    if ((await page.getByTestId('run-phase').getAttribute('data-phase')) === 'error') return null;
    await page.waitForTimeout(100);
  }
  return null;
}

async function startWhenEnabled(page: Page, timeoutMs: number): Promise<void> {
  const start = page.getByTestId('start');
  await start.waitFor({ state: 'visible', timeout: timeoutMs });
  await page.waitForFunction(() => {
    const b = (globalThis as unknown as { document: { querySelector(s: string): { disabled?: boolean } | null } }).document.querySelector('[data-testid="start"]');
    return b !== null && !b.disabled;
  }, undefined, { timeout: timeoutMs, polling: 100 });
  await start.click();
}

export async function runTaskBench(taskId: string, timeoutMs: number, log: (line: string) => void): Promise<TaskTiming> {
  const task = GALLERY.find((t) => t.id === taskId);
  if (!task) throw new Error(`no gallery task "${taskId}" (known: ${GALLERY.map((t) => t.id).join(', ')})`);
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-task-'));
  log('task: vite build ...');
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 4192, strictPort: false } });
  const base = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4192/';
  const profile = mkdtempSync(join(tmpdir(), 'cohort-lab-task-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, args: ARGS, headless: true });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(base);
    await page.getByTestId('task-select').waitFor({ state: 'visible', timeout: timeoutMs });
    await page.getByTestId('backend-status').filter({ hasNotText: /detecting/ }).waitFor({ timeout: timeoutMs });
    const t0 = performance.now();
    await page.getByTestId('task-select').selectOption(`gallery:${task.id}`);
    await startWhenEnabled(page, timeoutMs);
    const firstStepS = await untilFirstStep(page, t0, timeoutMs);
    log(`task: ${task.id}: first RL step ${firstStepS?.toFixed(1) ?? 'not reached'} s after the pick`);
    const firstSource = ((await page.getByTestId('base-source-A').textContent({ timeout: 5000 }).catch(() => '')) ?? '').trim();
    const link = page.url();

    const t1 = performance.now();
    await page.goto(link);
    await startWhenEnabled(page, timeoutMs);
    const reopenFirstStepS = await untilFirstStep(page, t1, timeoutMs);
    log(`task: ${task.id}: reopened, first RL step ${reopenFirstStepS?.toFixed(1) ?? 'not reached'} s after opening`);
    const reopenSource = ((await page.getByTestId('base-source-A').textContent({ timeout: 5000 }).catch(() => '')) ?? '').trim();
    const backend = ((await page.getByTestId('backend-status').textContent()) ?? '').replace(/^Backend:\s*/, '');

    await page.getByTestId('task-own').click();
    const t2 = performance.now();
    await page.getByTestId('task-file').setInputFiles({ name: 'sums.csv', mimeType: 'text/csv', buffer: Buffer.from(csvRows()) });
    await page.getByTestId('task-count').filter({ hasText: /^2,000 distinct problems/ }).waitFor({ timeout: timeoutMs });
    const csvPreviewMs = Math.round(performance.now() - t2);
    log(`task: a 2,000-row CSV previewed in ${csvPreviewMs} ms`);
    return {
      task: task.id,
      browser: `Chromium ${context.browser()?.version() ?? ''}`.trim(),
      backend,
      firstStepS,
      firstSource,
      reopenFirstStepS,
      reopenSource,
      csvPreviewMs,
      load: Math.round(loadavg()[0] * 100) / 100,
      date: new Date().toISOString().slice(0, 10),
    };
  } finally {
    await context.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  }
}

/** BENCHMARKS' <!-- task --> section, from bench/results/task.json. */
export function taskSection(timings: TaskTiming[]): string {
  const s = (x: number | null) => (x === null ? 'not reached' : x.toFixed(1));
  const dates = [...new Set(timings.map((t) => t.date))].sort().join(', ');
  return [
    `## A task of one's own in the page, ${dates}`,
    '',
    '`npm run bench -- --no-node --no-browser --no-bundle --no-torch --task ID`: the production build served by `vite preview`, the ' +
      'default link in a fresh browser profile. "Pick to first step": seconds from choosing gallery task ID in the task picker ' +
      '(Start pressed as soon as it was enabled) to the first RL step shown, the warm start trained in the page. "Reopen to first ' +
      'step": the page\'s link opened again in the same profile, seconds from opening to the first RL step, the warm start read ' +
      'from IndexedDB. "CSV preview": milliseconds from handing a 2,000-row CSV to the task file input to its preview and split ' +
      'shown. One run each; targets: 45 s, 5 s and 1,000 ms on a quiet 2-core machine without a GPU. Load: the machine\'s ' +
      '1-minute load average when the run ended (2 cores: above 2 the figures are slower than a quiet machine\'s).',
    '',
    '| task | browser | backend | pick to first step (s) | weights | reopen to first step (s) | weights | CSV preview (ms) | load |',
    '|---|---|---|---:|---|---:|---|---:|---:|',
    ...timings.map(
      (t) =>
        `| ${t.task} | ${t.browser} | ${t.backend} | ${s(t.firstStepS)} | ${t.firstSource || '–'} | ${s(t.reopenFirstStepS)} | ${t.reopenSource || '–'} | ${t.csvPreviewMs} | ${t.load} |`,
    ),
    '',
  ].join('\n');
}
