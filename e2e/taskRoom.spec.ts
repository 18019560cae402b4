/**
 * A task of one's own in class mode: the teacher's task reaches every student with the room's
 * experiment (the real room server; students in their own browser contexts), each student's page
 * shows it in the task picker and the editor, every seat trains it to its end with its own seed, and
 * the projector reads the class's verdict on the question over the seats' runs.
 */
import { expect, test } from '@playwright/test';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

const perTest = roomServerPerTest<Student>();

test("a class room with the teacher's own task gives every student the task, and every seat trains it", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  await page.getByTestId('task-own').click();
  await page.getByTestId('task-title').fill('Last digit');
  await page.getByTestId('task-template').fill('{a}=');
  await page.getByTestId('task-vars').fill('a = 100..999');
  await page.getByTestId('task-answer').fill('a%10');
  await page.getByTestId('task-scratchpad').fill('');
  await expect(page.getByTestId('task-count')).toHaveText(/^900 distinct problems/);
  await page.getByTestId('task-use').click();
  await expect(page.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Last digit');
  const link = await presenter.createRoom(perTest.server.url);

  for (let i = 0; i < 2; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    await expect(s.page.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Last digit');
    await expect(s.page.getByTestId('task-template')).toHaveValue('{a}=');
    await expect(s.page.getByTestId('task-answer')).toHaveValue('a%10');
    await s.seatAndSeed();
  }
  await presenter.startForEverybody();
  await presenter.waitAllDone(2, 6);

  // One seed a seat: the projector reads the class's verdict on the question over the seats' finished runs.
  await page.getByTestId('room-projector').click();
  const verdict = page.getByTestId('class-verdict');
  await expect(verdict).toHaveAttribute('data-runs', '2', { timeout: 60_000 });
  await expect(verdict).toHaveAttribute('data-state', /^(verdict|cannot-tell)$/);
  await expect(verdict.getByTestId('friend-sentence')).toContainText('On "Last digit", over 2 seeds');
});

test('a data task of 700 rows pasted in the editor opens a class room, and a student gets every row', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  await page.getByTestId('task-own').click();
  await page.getByTestId('task-mode-data').check();
  await page.getByTestId('task-data-title').fill('Sums of 700');
  const rows = Array.from({ length: 700 }, (_, i) => `${Math.floor(i / 100)}+${i % 100}=,${Math.floor(i / 100) + (i % 100)}`);
  await page.getByTestId('task-data').fill(['prompt,answer', ...rows].join('\n'));
  await expect(page.getByTestId('task-count')).toHaveText(/^700 distinct/, { timeout: 30_000 });
  await page.getByTestId('task-use').click();
  await expect(page.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Sums of 700');
  // A create of 700 rows was refused before ("at most 2048 values"): now the room opens.
  const link = await presenter.createRoom(perTest.server.url);
  const s = await Student.join(browser, link);
  perTest.students.push(s);
  await expect(s.page.getByTestId('task-select').locator('option:checked')).toHaveText('Your own: Sums of 700');
  // The student's editor holds the room's rows (read-only), all 700 of them.
  await expect.poll(async () => (await s.page.getByTestId('task-data').inputValue()).split('"prompt"').length - 1, { timeout: 30_000 }).toBe(700);
});
