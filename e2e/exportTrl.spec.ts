/**
 * "Export for GPUs" (src/app/run/ExportTrlButton.tsx): the button next to the run bar's actions
 * downloads the experiment on screen as a zip of the TRL project, with one model id per member
 * (a default per member, checked as typed).
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readZipStore } from '../src/export/zip';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test('Export for GPUs downloads the experiment on screen as a TRL project zip', async ({ page }) => {
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  await lab.open('?backend=wasm');
  await lab.choosePreset('ring');

  // In the run bar's Details (out of the bar's main row).
  await page.getByTestId('run-details-toggle').click();
  await page.getByTestId('export-trl').click();
  const panel = page.getByTestId('export-trl-panel');
  await expect(panel).toBeVisible();
  for (const id of ['A', 'B', 'C']) await expect(page.getByTestId(`export-model-${id}`)).toHaveValue('Qwen/Qwen2.5-0.5B-Instruct');
  // Members of one model are clones but for their sampling seeds: the dialog says so.
  await expect(page.getByTestId('export-trl-shared-model')).toContainText('members A, B and C share the model Qwen/Qwen2.5-0.5B-Instruct');
  await expect(page.getByTestId('export-trl-shared-model')).toContainText('differ only by their sampling seeds');

  // A malformed id is refused as it is typed; a valid one is taken.
  const b = page.getByTestId('export-model-B');
  await b.fill('not a model id');
  await expect(panel).toContainText('is not a Hugging Face model id');
  await expect(page.getByTestId('export-trl-download')).toBeDisabled();
  await b.fill('meta-llama/Llama-3.2-1B-Instruct');
  await expect(page.getByTestId('export-trl-download')).toBeEnabled();
  await expect(page.getByTestId('export-trl-shared-model')).toHaveText(/^members A and C share the model/);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-trl-download').click()]);
  expect(download.suggestedFilename()).toBe('cohort-lab-ring-trl.zip');
  const path = await download.path();
  const entries = readZipStore(new Uint8Array(readFileSync(path)));
  const names = entries.map((e) => e.path);
  for (const f of ['train_cohort.py', 'cohort_rewards.py', 'rendezvous.py', 'README.md', 'config.json', 'launch.sh', 'data/rl.jsonl', 'data/schedule.json']) {
    expect(names).toContain(`cohort-lab-ring-trl/${f}`);
  }
  const text = (f: string) => new TextDecoder().decode(entries.find((e) => e.path === `cohort-lab-ring-trl/${f}`)!.data);
  expect(text('train_cohort.py')).toContain('class CohortGRPOTrainer(GRPOTrainer)');
  expect(text('README.md')).toContain('it has not been run on a\nGPU');
  const config = JSON.parse(text('config.json'));
  expect(config.members.map((m: { model: string }) => m.model)).toEqual(['Qwen/Qwen2.5-0.5B-Instruct', 'meta-llama/Llama-3.2-1B-Instruct', 'Qwen/Qwen2.5-0.5B-Instruct']);
  expect(config.arms.map((a: { scheme: string }) => a.scheme)).toContain('ring');
  await expect(page.getByTestId('export-trl-status')).toContainText('Downloaded cohort-lab-ring-trl.zip');
  expect(errors).toEqual([]);
});
