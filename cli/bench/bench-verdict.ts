/**
 * `npm run bench -- --no-node --no-browser --no-bundle --no-torch --verdict [IDS]`: from "Use this
 * task" to the verdict on the page, for each gallery task and three questions of a student's own,
 * timed as a student meets them. Builds the app, serves it, and for each question opens the
 * default experiment (wasm) in a fresh browser profile, puts the task in as a student does (a
 * gallery task: one pick in the task picker; a generator: typed into the editor, then Use this
 * task; a data task: its file opened, then Use this task), presses Start (a task of one's own trains
 * its block of seeds) and waits for the verdict panel to read a verdict or "cannot tell"
 * (src/app/run/VerdictPanel.tsx). Writes what the page read: the state, the sentence for a friend,
 * each part's Holm verdict, and the seconds from the task's use to the verdict.
 *
 * Wall-clock figures of one run each: docs/TASKS.md's generated table reports them with the
 * browser and the machine's load. Target: within 3 minutes on a 2-core machine with wasm, and a
 * verdict only where the oracle learnt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { chromium, type Page } from '@playwright/test';
import { findChromium } from '../../scripts/find-chromium.mjs';
import { VERDICT_QUESTIONS, type VerdictQuestion } from './verdict-questions';

export interface VerdictTiming {
  question: string;
  /** How the task was put in: a gallery pick, a typed generator, a data file. */
  kind: VerdictQuestion['kind'];
  /** The definition in short: the template and answer rule, or the file's rows. */
  what: string;
  browser: string;
  backend: string;
  /** 'verdict', 'cannot-tell', or 'timed out'. */
  state: string;
  /** Seconds from the task's use (the pick, or Use this task) to the verdict shown; null: not within the timeout. */
  seconds: number | null;
  /** Seeds the verdict is over. */
  seeds: number;
  /** Holm verdict per part (truth, self, peer, peerOverSelf), as the page read them. */
  parts: Record<string, string>;
  /** The sentence for a friend, as the page wrote it. */
  sentence: string;
  load: number;
  date: string;
}

const ARGS = ['--no-sandbox', '--enable-unsafe-webgpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

async function putTask(page: Page, q: VerdictQuestion, timeoutMs: number): Promise<number> {
  if (q.kind === 'gallery') {
    const t0 = performance.now();
    await page.getByTestId('task-select').selectOption(`gallery:${q.id}`);
    return t0;
  }
  await page.getByTestId('task-own').click();
  if (q.kind === 'generator') {
    await page.getByTestId('task-title').fill(q.title);
    await page.getByTestId('task-template').fill(q.template);
    await page.getByTestId('task-vars').fill(q.vars);
    await page.getByTestId('task-answer').fill(q.answer);
    await page.getByTestId('task-scratchpad').fill('');
  } else {
    await page.getByTestId('task-file').setInputFiles({ name: q.file, mimeType: 'text/csv', buffer: Buffer.from(q.csv) });
  }
  // The editor checks an edit a moment later: Use this task takes the task once its count is the typed one's.
  await page.getByTestId('task-count').filter({ hasText: new RegExp(`^${q.problems} distinct problems`) }).waitFor({ timeout: timeoutMs });
  const use = page.getByTestId('task-use');
  await page.waitForFunction(() => {
    const b = (globalThis as unknown as { document: { querySelector(s: string): { disabled?: boolean } | null } }).document.querySelector('[data-testid="task-use"]');
    return b !== null && !b.disabled;
  }, undefined, { timeout: timeoutMs, polling: 100 });
  const t0 = performance.now();
  await use.click();
  return t0;
}

async function startWhenEnabled(page: Page, timeoutMs: number): Promise<void> {
  await page.waitForFunction(() => {
    const b = (globalThis as unknown as { document: { querySelector(s: string): { disabled?: boolean } | null } }).document.querySelector('[data-testid="start"]');
    return b !== null && !b.disabled;
  }, undefined, { timeout: timeoutMs, polling: 100 });
  await page.getByTestId('start').click();
}

/** Time one question in a fresh profile of the served build at `base`. */
async function timeQuestion(base: string, q: VerdictQuestion, executablePath: string, timeoutMs: number, log: (line: string) => void): Promise<VerdictTiming> {
  const profile = mkdtempSync(join(tmpdir(), 'cohort-lab-verdict-profile-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, args: ARGS, headless: true });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${base}?backend=wasm`);
    await page.getByTestId('task-select').waitFor({ state: 'visible', timeout: timeoutMs });
    await page.getByTestId('backend-status').filter({ hasNotText: /detecting/ }).waitFor({ timeout: timeoutMs });
    const t0 = await putTask(page, q, timeoutMs);
    await startWhenEnabled(page, timeoutMs);
    const panel = page.getByTestId('verdict');
    let state = 'timed out';
    let seconds: number | null = null;
    while (performance.now() - t0 < timeoutMs) {
      const s = await panel.getAttribute('data-state', { timeout: 1000 }).catch(() => null);
      if (s === 'verdict' || s === 'cannot-tell') {
        state = s;
        seconds = (performance.now() - t0) / 1000;
        break;
      }
      await page.waitForTimeout(250);
    }
    const sentence = state === 'timed out' ? '' : ((await page.getByTestId('friend-sentence').textContent()) ?? '').trim();
    const parts: Record<string, string> = {};
    for (const id of ['truth', 'self', 'peer', 'peerOverSelf']) {
      const v = await page.getByTestId(`verdict-part-${id}`).getAttribute('data-verdict', { timeout: 500 }).catch(() => null);
      if (v) parts[id] = v;
    }
    const seeds = Number((await page.getByTestId('verdict-body').getAttribute('data-seeds', { timeout: 500 }).catch(() => '0')) ?? 0);
    const backend = ((await page.getByTestId('backend-status').textContent()) ?? '').replace(/^Backend:\s*/, '').trim();
    log(`verdict: ${q.id}: ${state} after ${seconds?.toFixed(0) ?? '-'} s: ${sentence.slice(0, 160)}`);
    return {
      question: q.id,
      kind: q.kind,
      what: q.kind === 'gallery' ? q.title : q.kind === 'generator' ? `${q.template} -> ${q.answer} (${q.vars.replace(/\n/g, ', ')})` : `${q.file}: ${q.csv.trim().split('\n').length - 1} rows`,
      browser: `Chromium ${context.browser()?.version() ?? ''}`.trim(),
      backend,
      state,
      seconds: seconds === null ? null : Math.round(seconds * 10) / 10,
      seeds,
      parts,
      sentence,
      load: Math.round(loadavg()[0] * 100) / 100,
      date: new Date().toISOString().slice(0, 10),
    };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** Build, serve, and time each of `ids` (all when empty); `onRow` gets each row as it is measured. */
export async function runVerdictBench(ids: readonly string[], timeoutMs: number, log: (line: string) => void, onRow: (t: VerdictTiming) => void): Promise<VerdictTiming[]> {
  const questions = ids.length ? VERDICT_QUESTIONS.filter((q) => ids.includes(q.id)) : VERDICT_QUESTIONS;
  const unknown = ids.filter((id) => !VERDICT_QUESTIONS.some((q) => q.id === id));
  if (unknown.length) throw new Error(`no question ${unknown.join(', ')} (known: ${VERDICT_QUESTIONS.map((q) => q.id).join(', ')})`);
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
  const outDir = mkdtempSync(join(tmpdir(), 'cohort-lab-verdict-'));
  log('verdict: vite build ...');
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 4193, strictPort: false } });
  const base = server.resolvedUrls?.local[0] ?? 'http://127.0.0.1:4193/';
  const rows: VerdictTiming[] = [];
  try {
    for (const q of questions) {
      const t = await timeQuestion(base, q, executablePath, timeoutMs, log);
      rows.push(t);
      onRow(t);
    }
  } finally {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  return rows;
}
