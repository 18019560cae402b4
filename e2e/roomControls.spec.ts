/**
 * The teacher's controls and one seat in two tabs (issue 28, item 5), in Chromium with the real
 * room server (cli/room.ts); and the presenter's page on localhost warned that students' devices
 * cannot open its join link (item 6; the LAN link itself: roomLink.test.ts, no LAN address here):
 *   1. Lock to new students: a new student is refused in words, a seated one still comes back;
 *      Remove (asked first in the row): the student is told in words and the seat is freed for
 *      the next join once the room is unlocked;
 *   2. the seat's link opened in a second tab of the same browser: that tab says the seat is open
 *      in another tab and waits (no flapping: the issue saw two tabs take the seat from each other
 *      60 times in 31 s); "Use this tab here" moves the seat, and the first tab waits in turn.
 */
import { expect, test } from '@playwright/test';
import { ClassView, Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1280, height: 900 } });

const perTest = roomServerPerTest<Student>();


test('the teacher locks the room and removes a seat; the students are told in words', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  // Item 6: this page is on 127.0.0.1 and the server (bound to 127.0.0.1) has no LAN address to offer.
  await expect(page.getByTestId('room-link-warning')).toHaveText(
    /^This page is open at 127\.0\.0\.1:\d+, a localhost address: students' devices cannot open it\. Open the lab at this computer's network address and create the room there\.$/,
  );
  const first = await Student.join(browser, link);
  perTest.students.push(first);
  const { seat, seed } = await first.seatAndSeed();
  expect(seat).toBe(0);
  await expect(presenter.seats).toHaveCount(1);

  // Lock: the presenter's page says so; a new student is refused in words, its lab works alone.
  await expect(page.getByTestId('room-lock-state')).toHaveText('Open: anyone with the link can join.');
  await page.getByTestId('room-lock').click();
  await expect(page.getByTestId('room-lock')).toHaveText('Unlock');
  await expect(page.getByTestId('room-lock-state')).toHaveText('Locked: no new student can join; students already seated can still come back.');
  await expect(presenter.status).toHaveText('Online: room open, waiting for Start, locked to new students.');
  const late = await Student.join(browser, link);
  perTest.students.push(late);
  await expect(late.status).toHaveText('The presenter locked the room to new students. Your run goes on here alone.');
  await expect(presenter.seats).toHaveCount(1);
  // A seated student still comes back to its seat (a reload: back within the server's grace for a seat left before the start).
  await first.page.reload();
  expect(await first.seatAndSeed()).toEqual({ seat: 0, seed });

  // Remove seat 0: asked first; Keep it leaves it, Remove seat 0 removes it.
  await presenter.seat(0).getByTestId('room-seat-remove').click();
  await expect(presenter.seat(0)).toContainText('Remove seat 0? Its browser leaves the room (its run goes on there alone) and the seat is freed.');
  await presenter.seat(0).getByTestId('room-seat-remove-cancel').click();
  await expect(presenter.seat(0).getByTestId('room-seat-remove-confirm')).toHaveCount(0);
  await presenter.seat(0).getByTestId('room-seat-remove').click();
  await presenter.seat(0).getByTestId('room-seat-remove-confirm').click();
  await expect(first.status).toHaveText('The presenter removed this seat from the room. Your run goes on here alone.', { timeout: 30_000 });
  await expect(page.getByTestId('room-no-seats')).toHaveText('No browser has joined yet.', { timeout: 30_000 });
  // The removed page does not come back by itself.
  await first.page.waitForTimeout(2000);
  await expect(page.getByTestId('room-no-seats')).toBeVisible();

  // Unlocked, the late student gets the freed seat 0 (same seed as before).
  await page.getByTestId('room-lock').click();
  await expect(page.getByTestId('room-lock-state')).toHaveText('Open: anyone with the link can join.');
  await late.open(link);
  expect(await late.seatAndSeed()).toEqual({ seat: 0, seed });
  await expect(presenter.seats).toHaveCount(1);
});

test('a second tab of a seat says so and waits; "Use this tab here" moves the seat, and the first tab waits in turn', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  const one = await Student.join(browser, link);
  perTest.students.push(one);
  expect((await one.seatAndSeed()).seat).toBe(0);
  await expect(one.status).toHaveText('Online: room open, waiting for Start.');

  // The same browser (same localStorage: the seat's token), a second tab.
  const two = new ClassView(await one.context.newPage());
  await two.page.goto(`${link}&backend=wasm`);
  const elsewhere = 'This seat is open in another tab. The seat streams from one tab at a time: to go on in this one, use it here (the other tab then waits).';
  await expect(two.status).toHaveText(elsewhere, { timeout: 60_000 });
  await expect(two.page.getByTestId('room-use-here')).toHaveText('Use this tab here');
  // No flapping: a few seconds on, the first tab still holds the seat and the second still waits.
  await two.page.waitForTimeout(4000);
  await expect(one.status).toHaveText('Online: room open, waiting for Start.');
  await expect(two.status).toHaveText(elsewhere);
  await expect(presenter.seats).toHaveCount(1);

  await two.page.getByTestId('room-use-here').click();
  await expect(two.status).toHaveText('Online: room open, waiting for Start.', { timeout: 30_000 });
  await expect(two.page.getByTestId('room-seat-line')).toHaveText(/^You are seat 0, seed \d+/);
  await expect(one.status).toHaveText(elsewhere, { timeout: 30_000 });
  await expect(one.page.getByTestId('room-use-here')).toBeVisible();
  await one.page.waitForTimeout(4000);
  await expect(two.status).toHaveText('Online: room open, waiting for Start.');
  await expect(one.status).toHaveText(elsewhere);
  await expect(presenter.seats).toHaveCount(1);
  await expect(presenter.seat(0)).toHaveAttribute('data-connected', 'true');
});
