/**
 * Drives the lab page in e2e tests (excalidraw-style helper): the tests read like a student's
 * session, and assert on data-* attributes the app exposes, not on pixels.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Locator, type Page, expect } from '@playwright/test';

export const CHARTS = ['chart-pseudo', 'chart-disagreement', 'chart-entropy', 'chart-length', 'chart-pass1', 'chart-majg'] as const;

export class LabPage {
  constructor(readonly page: Page) {}

  async open(query = ''): Promise<void> {
    await this.page.goto(`/${query}`);
    await expect(this.page.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
    await expect(this.backendStatus).not.toHaveText(/detecting/, { timeout: 90_000 });
  }

  get backendStatus(): Locator {
    return this.page.getByTestId('backend-status');
  }
  get phase(): Locator {
    return this.page.getByTestId('run-phase');
  }
  get stepCounter(): Locator {
    return this.page.getByTestId('rl-step');
  }
  button(name: 'start' | 'pause' | 'resume' | 'step' | 'reset'): Locator {
    return this.page.getByTestId(name);
  }
  chart(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  async choosePreset(id: string): Promise<void> {
    await this.page.getByTestId('preset-select').selectOption(id);
    await expect(this.page.getByTestId('preset-select')).toHaveValue(id);
  }

  /** Unfold a collapsed section of the Experiment panel ('GRPO', 'Data and warm start', 'Seeds'). */
  async openSection(name: string): Promise<void> {
    const summary = this.page.getByTestId('experiment-panel').locator('summary').getByText(name, { exact: true });
    const details = summary.locator('xpath=ancestor::details[1]');
    if ((await details.getAttribute('open')) === null) await summary.click();
    await expect(details).toHaveAttribute('open', '');
  }

  /** Type into a spec field (data-testid field-<path>), e.g. setField('steps', 4). */
  async setField(path: string, value: number): Promise<void> {
    await this.page.getByTestId(`field-${path}`).fill(String(value), { timeout: 30_000 });
  }

  /**
   * Make every member's warm start this short (SwiftShader WebGPU is slow), with a learning rate
   * high enough that the models still emit parseable answers (so pseudo-labels exist). The
   * warm-start target is switched off: a few steps cannot reach it, and a missed target stops the run.
   */
  async shortenWarmStart(steps: number, learningRate = 0.02): Promise<void> {
    const n = await this.page.locator('[data-testid^="field-members."][data-testid$=".warmStartSteps"]').count();
    for (let i = 0; i < n; i++) {
      await this.setField(`members.${i}.warmStartSteps`, steps);
      await this.setField(`members.${i}.warmStartTarget`, 0);
    }
    await this.openSection('Data and warm start');
    await this.setField('warmStart.learningRate', learningRate);
  }

  async step(): Promise<number> {
    return Number(await this.stepCounter.getAttribute('data-step'));
  }

  async waitForStep(atLeast: number, timeout = 240_000): Promise<void> {
    await expect.poll(() => this.step(), { timeout, intervals: [250, 500, 1000] }).toBeGreaterThanOrEqual(atLeast);
  }

  async waitForPhase(phase: string, timeout = 240_000): Promise<void> {
    await expect(this.phase).toHaveAttribute('data-phase', phase, { timeout });
  }

  /**
   * The end of a block of seeds (a task of one's own's Start, or "Run N seeds"): the verdict panel
   * reads a verdict or "cannot tell" (run/VerdictPanel.tsx). Returns which.
   */
  async waitForVerdict(timeout = 240_000): Promise<'verdict' | 'cannot-tell'> {
    const panel = this.page.getByTestId('verdict');
    await expect(panel).toHaveAttribute('data-state', /^(verdict|cannot-tell)$/, { timeout });
    return (await panel.getAttribute('data-state')) as 'verdict' | 'cannot-tell';
  }

  async waitPaused(): Promise<void> {
    await expect(this.phase).toHaveAttribute('data-paused', 'true', { timeout: 120_000 });
  }

  /**
   * Paused, on the worker's word (src/engine/runController.ts): `paused` means nothing is in
   * flight, and `data-worker-step` is the last step it posted. Returns that step, once the page
   * shows it: no later step can arrive until Resume or Step, so no sleep is needed to prove it.
   */
  async waitPausedAt(step?: number): Promise<number> {
    await this.waitPaused();
    if (step !== undefined) await expect(this.phase).toHaveAttribute('data-worker-step', String(step), { timeout: 240_000 });
    const k = Number(await this.phase.getAttribute('data-worker-step'));
    await expect.poll(() => this.step(), { timeout: 30_000 }).toBe(k);
    return k;
  }

  async points(testId: string): Promise<number> {
    return Number(await this.chart(testId).getAttribute('data-points'));
  }

  async series(testId: string): Promise<string[]> {
    const s = (await this.chart(testId).getAttribute('data-series')) ?? '';
    return s ? s.split('|') : [];
  }

  /**
   * The lines a chart's legend keys stand for (every drawn line but the faint raw and per-seed
   * ones): its data-legend. The keys themselves (arm colours, line styles) are `legendKeys`.
   */
  async legend(testId: string): Promise<string[]> {
    const s = (await this.chart(testId).getAttribute('data-legend')) ?? '';
    return s ? s.split('|') : [];
  }

  /** The entries of a chart's two legend keys, as shown. */
  async legendKeys(testId: string): Promise<{ colours: string[]; lines: string[] }> {
    const key = (name: string) => this.page.getByTestId(`${testId}-legend-${name}`).locator('.legend-entry').allTextContents();
    return { colours: await key('colours'), lines: await key('lines') };
  }

  /** Unfold a detail panel ('pseudo', 'disagreement', 'inspector', 'glossary'; folded by default). */
  async unfold(panel: string): Promise<void> {
    const section = this.page.getByTestId(`panel-${panel}`);
    if ((await section.getAttribute('data-open')) !== 'true') await this.page.getByTestId(`toggle-${panel}`).click();
    await expect(section).toHaveAttribute('data-open', 'true');
  }

  async instances(testId: string): Promise<number> {
    return Number(await this.chart(testId).getAttribute('data-instances'));
  }

  /**
   * Screenshot of the main view (scrolled to the top) into test-results/screenshots/, and copied
   * for the README only when asked (`npm run screenshot` sets UPDATE_SCREENSHOT=1): `npm test`
   * leaves the working tree as it found it.
   */
  async screenshot(name: string, copyTo?: string): Promise<void> {
    const path = `test-results/screenshots/${name}.png`;
    mkdirSync(dirname(path), { recursive: true });
    await this.page.evaluate(() => {
      window.scrollTo(0, 0);
      document.querySelector('.side')?.scrollTo(0, 0);
    });
    await this.page.screenshot({ path, fullPage: false });
    if (copyTo && process.env.UPDATE_SCREENSHOT === '1') {
      mkdirSync(dirname(copyTo), { recursive: true });
      copyFileSync(path, copyTo);
    }
  }
}
