/**
 * A task of one's own in the page (docs/TASKS.md): a generator typed into the editor runs to its
 * end, its link reopened finds the warm starts cached, and reproduces the run in a fresh browser; a data file opened with the file input
 * runs or ends in the out-of-reach sentence, from which the run goes on; every hostile file is
 * refused in words before any training, with nothing else on the page lost. wasm: fast and
 * deterministic.
 */
import { deflateRawSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { collectErrors, inNewContext } from './helpers';
import { LabPage } from './helpers/lab';
import { PRESETS } from '../src/core/experiment/presets';

test.use({ viewport: { width: 1440, height: 900 } });

const QUICK = '?backend=wasm&v=1&preset=quick';

/** The last digit of a three-digit number: a task the quick preset's MLPs learn in their warm start. */
async function typeLastDigit(page: Page): Promise<void> {
  await page.getByTestId('task-own').click();
  const editor = page.getByTestId('task-editor');
  await expect(editor).toBeVisible();
  await page.getByTestId('task-title').fill('Last digit');
  await page.getByTestId('task-template').fill('{a}=');
  await page.getByTestId('task-vars').fill('a = 100..999');
  await page.getByTestId('task-answer').fill('a%10');
  await page.getByTestId('task-scratchpad').fill('');
}

async function lastMetrics(page: Page): Promise<string> {
  const json = await new LabPage(page).stepCounter.getAttribute('data-last-metrics');
  expect(json).not.toBeNull();
  return json!;
}

test('a generator typed in the editor runs to its end, and its link reproduces the run in a fresh browser', async ({ page, browser, context }) => {
  test.setTimeout(900_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open(QUICK);
  await typeLastDigit(page);

  // The live preview and the split, from the definition as typed.
  await expect(page.getByTestId('task-count')).toHaveText(/^900 distinct problems: the run uses 566 to warm-start on, 270 for RL and 64 held out\.$/);
  const preview = page.getByTestId('task-preview');
  await expect(preview.locator('tbody tr')).toHaveCount(8);
  for (const row of await preview.locator('tbody tr').all()) {
    const [prompt, completion] = await row.locator('td').allInnerTexts();
    expect(prompt).toMatch(/^[1-9]\d\d=$/);
    expect(completion).toBe(prompt[2]);
  }
  await expect(page.getByTestId('task-findings')).not.toContainText('Error');
  // An idle editor checks nothing: the count of checks stays put once the edits have settled.
  const checks = async () => Number(await page.getByTestId('task-editor').getAttribute('data-checks'));
  const settled = await checks();
  await page.waitForTimeout(1500);
  expect(await checks()).toBe(settled);

  await page.getByTestId('task-use').click();
  await expect(page.getByTestId('task-used')).toContainText('"Last digit"');
  await expect(page.getByTestId('task-select')).toHaveValue('custom');
  await expect(page.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Last digit');

  // Start on a task of one's own trains its block of seeds: the run compared is the block's last.
  await lab.button('start').click();
  await lab.waitForVerdict(400_000);
  const first = await lastMetrics(page);

  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('copy-link-status')).toHaveText('Link copied');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(link).search.length).toBeLessThan(8192);
  await expect(page.getByTestId('base-source-A')).toHaveText(/^trained/);

  // Reopened in the same browser, the link finds its warm starts in IndexedDB (by the task's content hash).
  await lab.open(new URL(link).search);
  await lab.button('start').click();
  await expect(page.getByTestId('base-source-A')).toHaveText(/^cached/, { timeout: 60_000 });
  await expect(page.getByTestId('base-source-B')).toHaveText(/^cached/);
  await lab.waitForVerdict(400_000);
  expect(await lastMetrics(page)).toBe(first);
  expect(errors).toEqual([]);

  const second = await inNewContext(browser, async (p) => {
    const otherErrors = collectErrors(p);
    const other = new LabPage(p);
    await other.open(new URL(link).search);
    await expect(p.getByTestId('link-error')).toHaveCount(0);
    await expect(p.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Last digit');
    await expect(p.getByTestId('task-editor')).toBeVisible();
    await expect(p.getByTestId('task-template')).toHaveValue('{a}=');
    await other.button('start').click();
    await other.waitForVerdict(400_000);
    expect(otherErrors).toEqual([]);
    return lastMetrics(p);
  });
  expect(second).toBe(first);
});

test('the editor opened over the default experiment holds only what the student writes: no example as a value, no rule of another task', async ({ page }) => {
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await page.getByTestId('task-own').click();
  const fields = ['task-title', 'task-template', 'task-vars', 'task-answer', 'task-scratchpad'];
  // Every field is empty (the grey hint under a field is never its value), and the findings say how to begin.
  for (const id of fields) await expect(page.getByTestId(id), id).toHaveValue('');
  await expect(page.getByTestId('task-findings')).toHaveText(/^Note: Nothing written yet/);
  await expect(page.getByTestId('task-use')).toBeDisabled();
  await page.getByTestId('task-mode-data').check();
  await expect(page.getByTestId('task-data')).toHaveValue('');
  await expect(page.getByTestId('task-data-title')).toHaveValue('');
  await page.getByTestId('task-mode-generator').check();

  // The last digit of a product: the model writes the answer alone, no scratchpad left from addition.
  await page.getByTestId('task-template').fill('{a}*{b}=');
  await page.getByTestId('task-vars').fill('a = 10..99\nb = 10..99');
  await page.getByTestId('task-answer').fill('(a*b)%10');
  const rows = page.getByTestId('task-preview').locator('tbody tr');
  await expect(rows).toHaveCount(8);
  for (const row of await rows.all()) {
    const [prompt, completion] = await row.locator('td').allInnerTexts();
    const [a, b] = prompt.slice(0, -1).split('*').map(Number);
    expect(completion, prompt).toBe(String((a * b) % 10));
  }
  await expect(page.getByTestId('task-use')).toBeEnabled();

  // A gallery task opened in the editor holds the gallery task's own rules, chosen by the student.
  await page.getByTestId('task-select').selectOption({ label: 'How many digits are 5 or more?' });
  await page.getByTestId('task-own').click();
  await expect(page.getByTestId('task-template')).toHaveValue('{a}{b}{c}{d}{e}');
  await expect(page.getByTestId('task-scratchpad')).toHaveValue(/^cat\(a > 4/);
  expect(errors).toEqual([]);
});

test('a gallery task is one click away, with its paragraph for students, and runs', async ({ page }) => {
  test.setTimeout(450_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open(QUICK);
  await page.getByTestId('task-select').selectOption({ label: 'The largest of four digits' });
  await expect(page.getByTestId('gallery-note')).toContainText('majority');
  await expect(page.getByTestId('task-editor')).toHaveCount(0);
  await lab.button('start').click();
  await lab.waitForVerdict(400_000);
  await expect(page.getByTestId('base-source-A')).toHaveText(/^trained/);
  // A gallery task is not "an edited experiment".
  await expect(page.getByTestId('claim-sentences')).toBeVisible();
  await expect(page.getByTestId('claim-sentences')).not.toContainText('An edited experiment');
  // The Details say where the start-up seconds went, phase by phase, in order (a backend forced by
  // the link is not chosen, and a warm start that reached its target before its first report sends none).
  const phases = await page.getByTestId('startup-timeline').locator('li').evaluateAll((items) => items.map((li) => li.getAttribute('data-phase')));
  expect(phases.slice(-2)).toEqual(['base', 'step']);
  expect(phases).toEqual(['backend', 'warm', 'base', 'step'].filter((p) => phases.includes(p)));
  // A built-in task again: the gallery task and its paragraph go, the preset's sizes come back.
  await page.getByTestId('task-select').selectOption('digitsum');
  await expect(page.getByTestId('gallery-note')).toHaveCount(0);
  await lab.openSection('Data and warm start');
  await expect(page.getByTestId('field-data.heldOut')).toHaveValue('64');
  expect(errors).toEqual([]);
});

test("another task takes the preset's title, paragraph and measured numbers off the page, and names the experiment", async ({ page }) => {
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  const preset = PRESETS['peers-learn'];
  const about = page.getByTestId('preset-about');
  await expect(about).toContainText(preset.title);
  await expect(about).toContainText('Over 8 seeds');
  await expect(page.getByTestId('reference-bar')).toHaveAttribute('data-status', 'ready');
  await expect(page.getByTestId('reference-label')).toContainText('8 seeds');

  await page.getByTestId('task-select').selectOption({ label: 'The largest of four digits' });
  await expect(page.getByTestId('preset-about-title')).toHaveText('Your question: The largest of four digits');
  await expect(page.getByTestId('preset-select').locator('option:checked')).toHaveText('Your question');
  // Nothing of the preset's own question is left: its title, its paragraph, its seeds' numbers.
  const text = await page.evaluate(() => document.body.innerText);
  for (const gone of [preset.explanation.slice(0, 60), 'Over 8 seeds', '8 seeds, mean', 'Predict first']) expect(text, gone).not.toContain(gone);
  await expect(about).not.toContainText(preset.title);
  await expect(page.getByTestId('hero-start')).not.toContainText(preset.title);
  await expect(page.getByTestId('hero-start')).toContainText('Your question, The largest of four digits:');
  await expect(page.getByTestId('reference-bar')).toHaveAttribute('data-status', 'edited');
  await expect(page.getByTestId('reference-edited')).toHaveText(`"The largest of four digits" is not the preset's task: the preset's reference run does not apply.`);

  // Back to the preset: its title and paragraph return.
  await about.getByRole('button', { name: 'Restore the preset' }).click();
  await expect(about).toContainText(preset.title);
  await expect(page.getByTestId('preset-select')).toHaveValue('peers-learn');
  expect(errors).toEqual([]);
});

/** 100 rows: the sum of two digits written side by side ("37=" -> 10); too few for the quick members' target. */
function digitPairsCsv(): string {
  const rows = ['prompt,answer'];
  for (let a = 0; a < 10; a++) for (let b = 0; b < 10; b++) rows.push(`${a}${b}=,${a + b}`);
  return rows.join('\n') + '\n';
}

test('a CSV file opened with the file input ends in the out-of-reach sentence, and the run goes on from the best reached', async ({ page }) => {
  test.setTimeout(180_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open(QUICK);
  await page.getByTestId('task-own').click();
  await page.getByTestId('task-file').setInputFiles({ name: 'digit-pairs.csv', mimeType: 'text/csv', buffer: Buffer.from(digitPairsCsv()) });
  await expect(page.getByTestId('task-mode-data')).toBeChecked();
  await expect(page.getByTestId('task-count')).toHaveText(/^100 distinct problems: the run uses 50 to warm-start on, 30 for RL and 20 held out\.$/);
  // A file this small is memorised: the check says so, with its numbers.
  await expect(page.getByTestId('task-findings')).toContainText('Warning');
  await page.getByTestId('task-use').click();
  await lab.button('start').click();
  await lab.waitForPhase('error', 120_000);

  const error = page.getByTestId('run-error');
  await expect(error.locator('strong')).toHaveText(/^Member A's warm start reached at best (under )?[\d.]+% against its target of 40% in \d+ steps, so this task looks out of its reach for now\. Measured: member A .+\. What would help: .+\. You can also go on from the best it reached\.$/);
  await expect(error).not.toContainText('onMiss');
  const curve = page.getByTestId('warm-curve').first();
  await expect(curve).toBeVisible();
  expect(Number(await curve.getAttribute('data-points'))).toBeGreaterThan(1);

  await page.getByTestId('go-on').click();
  await lab.waitForPhase('done', 150_000);
  await expect(page.getByTestId('run-error')).toHaveCount(0);
  expect(errors.filter((e) => !/looks out of its reach/.test(e))).toEqual([]);
});

/** Files built to hurt, and the words each must be refused with (before any training). */
const HOSTILE: { name: string; why: string; body: Buffer | string; says: RegExp }[] = [
  { name: 'fields.csv', why: 'a row with 3 fields', body: 'prompt,answer\n1=,1\n2=,2,9\n', says: /line 3 has 3 fields/ },
  { name: 'accent.csv', why: 'a character beyond ASCII', body: 'prompt,answer\n1=,1\ncaf\u00e9=,2\n', says: /character '\u00e9'/ },
  { name: 'empty.csv', why: 'an empty answer', body: 'prompt,answer\n1=,1\n2=,\n', says: /answer empty on line 3/ },
  { name: 'formula.csv', why: 'a spreadsheet formula', body: 'prompt,answer\n1=,1\n=1+1,2\n', says: /formula/ },
  { name: 'bidi.jsonl', why: 'a bidirectional override', body: '{"prompt":"1\u202e=","answer":"1"}\n', says: /U\+202E/ },
  { name: 'binary.csv', why: 'a NUL byte', body: Buffer.from([0x70, 0x72, 0x00, 0x6f, 0x0a]), says: /binary/ },
  { name: 'latin1.csv', why: 'bytes that are not UTF-8', body: Buffer.from([0x70, 0x2c, 0x61, 0x0a, 0xe9, 0x2c, 0x31, 0x0a]), says: /not UTF-8/ },
  { name: 'huge.csv', why: 'over the size limit', body: 'prompt,answer\n' + '1=,1\n'.repeat(120_000), says: /has 600,014 bytes; a task file may have at most 524,288/ },
  {
    name: 'slow.json',
    why: 'an expression built to make a huge string',
    body: JSON.stringify({ kind: 'generator', title: 'Slow', template: '{a}=', vars: { a: { min: 0, max: 999999999 } }, answer: 'pad(a, 1000000000)' }),
    says: /would have 1000000000 characters; the most is 64/,
  },
  {
    name: 'small.json',
    why: 'a template whose problems cannot fill the split',
    body: JSON.stringify({ kind: 'generator', title: 'Tiny', template: '{a}=', vars: { a: { min: 0, max: 9 } }, answer: 'a' }),
    says: /10 distinct problems/,
  },
];

test('hostile task files are refused in words before any training, and the experiment is kept', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open(QUICK);
  await expect(page.getByTestId('task-select')).toHaveValue('digitsum');
  await page.getByTestId('task-own').click();
  for (const h of HOSTILE) {
    await page.getByTestId('task-file').setInputFiles({ name: h.name, mimeType: 'text/plain', buffer: Buffer.from(h.body) });
    const said = page.getByTestId('task-findings').or(page.getByTestId('task-file-note'));
    await expect(said.first(), `${h.name} (${h.why})`).toContainText(h.says);
    await expect(page.getByTestId('task-use'), `${h.name} (${h.why})`).toBeDisabled();
  }
  // Nothing reached the experiment: the built-in task is still the one that runs, and Start is open.
  await expect(page.getByTestId('task-select')).toHaveValue('digitsum');
  await expect(lab.button('start')).toBeEnabled();
  expect(await lab.step()).toBe(0);
  expect(errors).toEqual([]);
});

test('a task in a link is untrusted too: a task built to be slow and a compressed bomb are refused in words, and the default experiment stays', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  const slow = { task: { id: 'custom', difficulty: 1, definition: { kind: 'generator', title: 'Slow', template: '{a}=', vars: { a: { min: 0, max: 999999999 } }, answer: 'pad(a, 1000000000)' } } };
  await lab.open(`${QUICK}&s=${Buffer.from(JSON.stringify(slow)).toString('base64url')}`);
  await expect(page.getByTestId('link-message')).toContainText('would have 1000000000 characters; the most is 64');
  await expect(page.getByTestId('link-message')).toContainText('Showing the default experiment instead.');
  await expect(page.getByTestId('task-select')).toHaveValue('digitsum');

  const bomb = deflateRawSync(Buffer.alloc((1 << 20) + 1, 0x20), { level: 9 }).toString('base64url');
  await lab.open(`?backend=wasm&v=2&preset=quick&z=${bomb}`);
  await expect(page.getByTestId('link-message')).toContainText('the changes (z=) inflate to 1048577 bytes; the limit is 1048576');
  await expect(lab.button('start')).toBeEnabled();
  expect(errors).toEqual([]);
});

