/**
 * Three questions of a student's own, asked as a student asks them (type the task or open its
 * file, Use this task, Start): each Start trains a block of seeds, and the page reads a verdict over
 * the seeds or "cannot tell" with what it measured (core/experiment/verdict.ts, run/VerdictPanel.tsx);
 * no seed's own sentence carries a check mark. The quick preset (6 RL steps): the run is short, so
 * the oracle seldom learns, and "cannot tell" must then say why with the measured numbers. wasm.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';
import { VERDICT_QUESTIONS } from '../cli/bench/verdict-questions';

test.use({ viewport: { width: 1440, height: 900 } });

const QUICK = '?backend=wasm&v=1&preset=quick';

async function typeGenerator(page: Page, title: string, template: string, vars: string, answer: string): Promise<void> {
  await page.getByTestId('task-own').click();
  await expect(page.getByTestId('task-editor')).toBeVisible();
  await page.getByTestId('task-title').fill(title);
  await page.getByTestId('task-template').fill(template);
  await page.getByTestId('task-vars').fill(vars);
  await page.getByTestId('task-answer').fill(answer);
  await page.getByTestId('task-scratchpad').fill('');
}

/** Start, then the block's end: a verdict, or "cannot tell" whose sentence quotes what was measured. */
async function askAndRead(page: Page, lab: LabPage): Promise<{ state: string; sentence: string }> {
  await lab.button('start').click();
  await expect(page.getByTestId('verdict')).toBeVisible({ timeout: 60_000 });
  const state = await lab.waitForVerdict(400_000);
  const sentence = (await page.getByTestId('friend-sentence').textContent()) ?? '';
  if (state === 'verdict') {
    // Over the seeds, with each part's interval: self, peer and the oracle that learnt.
    expect(sentence).toMatch(/over 4 seeds \(seeds \d+-\d+\): with self-reward held-out accuracy (rose|fell|showed no change beyond its noise) \([+−]\d\.\d\d \[/);
    await expect(page.getByTestId('verdict-part-truth')).toHaveAttribute('data-verdict', 'shown');
  } else {
    expect(sentence).toMatch(/the lab cannot tell whether self-reward collapses or a peer helps: /);
    // The cause is measured: the oracle's own numbers, a warm start's miss in its numbers, or the held-out set's width.
    expect(sentence).toMatch(/held-out pass@1 went from \d\.\d\d to \d\.\d\d|reached at best (under )?[\d.]+% against its target|±\d+ points wide/);
    expect(sentence).not.toMatch(/with self-reward held-out accuracy|with a peer's vote it/);
  }
  // A seed's own sentences are examples: none carries a check mark.
  for (const li of await page.getByTestId('claim-sentences').locator('li').all()) {
    await expect(li).toHaveAttribute('data-marked', 'false');
    await expect(li).not.toContainText('✓');
  }
  return { state, sentence };
}

/**
 * The sentence travels: it is the first line of the exported CSV, and the page's link reopened
 * brings the block and its verdict back (the seeds' saved runs, read again).
 */
async function sentenceTravels(page: Page, lab: LabPage, context: BrowserContext): Promise<void> {
  const sentence = (await page.getByTestId('friend-sentence').textContent())!.replace(/^(Verdict|Cannot tell): /, '');
  await page.getByTestId('export-toggle').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-members-csv').click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe(`# ${sentence}`);
  if (!REOPEN_RESTORES) return;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  await lab.open(new URL(link).search);
  await expect(page.getByTestId('hero-restored')).toBeVisible();
  await expect(page.getByTestId('friend-sentence')).toContainText(sentence);
}

/**
 * A known defect: the link reopened restores no run of the block (blockRunsOf, runs/lastRun.ts,
 * finds no saved run whose spec equals the link's), so the page shows the edited preset and no
 * verdict. The reopening half of sentenceTravels runs only in the test marked to fix below.
 */
let REOPEN_RESTORES = false;

test.fixme('the link reopened in the same browser brings the block and its verdict back', async ({ page, context }) => {
  test.setTimeout(900_000);
  REOPEN_RESTORES = true;
  const lab = new LabPage(page);
  const q = OWN.find((x) => x.kind === 'generator')!;
  if (q.kind !== 'generator') throw new Error('a generator question');
  await lab.open(QUICK);
  await typeGenerator(page, q.title, q.template, q.vars, q.answer);
  await expect(page.getByTestId('task-count')).toHaveText(new RegExp(`^${q.problems} distinct problems`));
  await page.getByTestId('task-use').click();
  await askAndRead(page, lab);
  await sentenceTravels(page, lab, context);
});

/** The three questions students brought (cli/bench/verdict-questions.ts), as the bench times them. */
const OWN = VERDICT_QUESTIONS.filter((q) => q.kind !== 'gallery');

test('three questions of a student\'s own each end in a verdict over seeds or "cannot tell" with its measured cause', async ({ page, context }) => {
  test.setTimeout(1_200_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  expect(OWN.map((q) => q.id)).toEqual(['max-of-two-digits', 'product-last-digit', 'word-length']);
  let travelled = false;
  for (const q of OWN) {
    await lab.open(QUICK);
    if (q.kind === 'generator') await typeGenerator(page, q.title, q.template, q.vars, q.answer);
    else if (q.kind === 'data') {
      await page.getByTestId('task-own').click();
      await page.getByTestId('task-file').setInputFiles({ name: q.file, mimeType: 'text/csv', buffer: Buffer.from(q.csv) });
      await expect(page.getByTestId('task-mode-data')).toBeChecked();
    }
    // The editor checks an edit a moment later: Use this task once the count is the typed task's.
    await expect(page.getByTestId('task-count')).toHaveText(new RegExp(`^${q.problems} distinct problems`));
    await page.getByTestId('task-use').click();
    await expect(page.getByTestId('task-used')).toContainText(q.kind === 'generator' ? `"${q.title}"` : 'runs');
    const read = await askAndRead(page, lab);
    test.info().annotations.push({ type: `${q.id}: ${read.state}`, description: read.sentence });
    if (q.kind === 'generator') expect(read.sentence).toContain(`On "${q.title}"`);
    // 32 rows: the held-out set is a handful, and the sentence says how wide that is and what would do.
    if (q.kind === 'data') expect(read.sentence).toMatch(/only \d held-out problems: one evaluation of them is ±\d\d points wide \(95%\); 100 held-out problems \(±10 points\) need about \d+ rows/);
    if (!travelled && Number(await page.getByTestId('verdict-body').getAttribute('data-seeds')) >= 2) {
      await sentenceTravels(page, lab, context);
      travelled = true;
    }
  }

  expect(travelled, 'a question whose block ran to its end, to export and reopen').toBe(true);
  expect(errors.filter((e) => !/looks out of its reach/.test(e))).toEqual([]);
});
