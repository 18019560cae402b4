/**
 * The warm-start guard in the lab (docs/WARMSTARTS.md, "The guard"): a shared experiment whose
 * member cannot reach its warm-start target stops before RL, and the page says, as text, which
 * member missed and what to change. wasm: fast and deterministic.
 */
import { expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { LabPage } from './helpers/lab';

test.use({ viewport: { width: 1440, height: 900 } });

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The quick preset with one tiny MLP whose target (0.99 in 3 steps) is out of reach. */
function link(warmStart: Record<string, unknown> = {}): string {
  const patch = {
    members: [
      { id: 'A', family: 'mlp', dModel: 16, layers: 1, window: 6, warmStartSteps: 3, warmStartTarget: 0.99, warmStartExamples: 200, initSeed: 11, dataSeed: 11, sampleSeed: 11 },
    ],
    arms: [{ id: 'self', scheme: 'self', members: ['A'] }],
    ...(Object.keys(warmStart).length ? { warmStart } : {}),
  };
  return `?backend=wasm&v=1&preset=quick&s=${b64(patch)}`;
}

test('a member that misses its warm-start target stops the run before RL, named on the page', async ({ page }) => {
  test.setTimeout(90_000);
  const errors = collectErrors(page);
  const lab = new LabPage(page);
  const error = page.getByTestId('run-error');

  await lab.open(link());
  await expect(page.getByTestId('link-error')).toHaveCount(0);
  await lab.button('start').click();
  await lab.waitForPhase('error', 60_000);
  await expect(error).toHaveAttribute('role', 'alert');
  await expect(error.locator('strong')).toHaveText(
    /^member A did not reach its warm-start target 0\.99 in 3 steps \(best [^)]+\): give it more warm-start steps, a lower target or another initSeed, or set warmStart\.onMiss to 'retry'$/,
  );
  await expect(error).toContainText('The warm start is deterministic');
  await expect(page.getByTestId('cohort-summary')).toHaveCount(0); // no base evaluation
  expect(await lab.step()).toBe(0);

  // With onMiss 'retry' (from the link), the next init seed is tried, then the same message.
  await lab.open(link({ onMiss: 'retry', retries: 1 }));
  await lab.button('start').click();
  await lab.waitForPhase('error', 60_000);
  await expect(error.locator('strong')).toHaveText(/^member A did not reach its warm-start target 0\.99 in 3 steps with init seed 11 or 12 \(best [^)]+\): /);
  expect(errors.filter((e) => !/did not reach its warm-start target/.test(e))).toEqual([]);
});
