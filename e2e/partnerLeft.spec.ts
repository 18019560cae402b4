/**
 * A paired class whose partner leaves after the start (docs/ROOM.md, "A partner who leaves"): a
 * peers-learn room on the real room server (cli/room/room.ts, a child process), two students in their
 * own browser contexts. The teacher removes one after Start; nobody takes the freed seat, so after
 * the partner wait the room switches the other to train both members itself: its page drops its
 * member part, says so in words, runs its pair from the start with the same seed, and the class
 * ends with no "End the run now". A few RL steps: enough that the member part is past step 1 when
 * its partner is removed and not yet done, so the presenter's table shows the seat's run restart.
 */
import { expect, test } from '@playwright/test';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

const STEPS = 20;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const perTest = roomServerPerTest<Student>();

test('a partner removed after the start: the other seat trains the pair alone from the start, and the class ends by itself', async ({ page, browser }) => {
  test.setTimeout(420_000);
  const presenter = new Presenter(page);
  await presenter.lab.open(`?backend=wasm&v=1&preset=peers-learn&s=${b64({ steps: STEPS, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue(String(STEPS));
  const link = await presenter.createRoom(perTest.server.url, { pairing: true });
  const [a, b] = [await Student.join(browser, link), await Student.join(browser, link)];
  perTest.students.push(a, b);
  await expect(a.seatLine).toContainText('your partner at seat 1 trains');
  const { seed } = await a.seatAndSeed();

  const seen = await presenter.recordSeatSteps();
  await presenter.startForEverybody();
  // Seat 0's member part is past its first RL step when the teacher removes seat 1.
  await a.lab.waitForStep(1, 120_000);
  await presenter.seat(1).getByTestId('room-seat-remove').click();
  await presenter.seat(1).getByTestId('room-seat-remove-confirm').click();
  await expect(b.status).toHaveAttribute('data-state', 'removed', { timeout: 30_000 });
  await expect(presenter.seats).toHaveCount(1);

  // Nobody takes seat 1 within the partner wait: seat 0 trains both members itself, told in plain words.
  await expect(a.page.getByTestId('room-partner-left')).toHaveText(
    "Your partner left; you now train both models yourself, from the start with the same seed. Your run counts for the class as your pair's.",
    { timeout: 90_000 },
  );
  await expect(a.seatLine).toContainText(`You are seat 0, seed ${seed}, pair 0: no partner, so you train both members of the peer arm yourself`);
  await expect(presenter.seat(0)).toHaveAttribute('data-alone', 'true');
  await expect(presenter.seat(0)).toContainText('trains both alone (partner: none)');

  // Its run of the pair reaches the room whole, and the class is over without "End the run now".
  await presenter.waitAllDone(1, STEPS, 300_000);
  await expect(presenter.status).toHaveText('Online: the class run is over.');
  await a.lab.waitForPhase('done');
  await expect(a.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);
  await expect(a.page.getByTestId('room-partner-left')).toHaveCount(0);
  await expect(page.getByTestId('room-end-now')).toHaveCount(0);
  // The presenter's table showed seat 0's member part, then its run from the start (step 0 again), to the end.
  const steps = (await seen())[0];
  const restart = steps.findIndex((x, i) => i > 0 && x < steps[i - 1]);
  expect(Math.max(...steps.slice(0, restart)), steps.join(' ')).toBeGreaterThanOrEqual(1);
  expect(steps[restart], steps.join(' ')).toBe(0);
  expect(steps.at(-1)).toBe(STEPS);
  // The presenter counts it as the pair's run: one pair, with the pair's seed.
  const claims = page.getByTestId('seed-claims');
  await expect(claims).toHaveAttribute('data-unit', 'pair', { timeout: 60_000 });
  await expect(claims).toHaveAttribute('data-seeds', '1');
  await expect(claims).toHaveAttribute('data-running', 'false');
});
