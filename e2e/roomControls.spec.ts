/**
 * The teacher's controls and one seat in two tabs, in Chromium with the real
 * room server (cli/room/room.ts); and the presenter's page on localhost warned that students' devices
 * cannot open its join link (item 6; the LAN link itself: roomLink.test.ts, no LAN address here):
 *   1. Lock to new students: a new student is refused in words, a seated one still comes back;
 *      Remove (asked first in the row): the student is told in words and the seat is freed for
 *      the next join once the room is unlocked;
 *   2. the seat's link opened in a second tab of the same browser: that tab says the seat is open
 *      in another tab and waits (no flapping: without that rule two tabs took the seat from each
 *      other 60 times in 31 s); "Use this tab here" moves the seat, and the first tab waits in turn.
 */
import { expect, test } from '@playwright/test';
import { ClassView, Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1280, height: 900 } });

const perTest = roomServerPerTest<Student>();


test('the teacher locks the room and removes a seat; the students are told in words', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  // The create panel names the experiment the room will run.
  await page.getByTestId('room-toggle').click();
  await expect(page.getByTestId('room-create-experiment')).toHaveText(/^The room will run [A-Z][^,]*, seed \d+: every student's browser trains it with a seed of its own\.$/);
  await page.getByTestId('room-toggle').click();
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
  await expect(page.getByTestId('room-join-locked')).toHaveText('The room is locked to new students: this link seats nobody new until you unlock it.');
  const late = await Student.join(browser, link);
  perTest.students.push(late);
  // Locked out: no seat and no run, so not "your run goes on here alone".
  await expect(late.status).toHaveText('The presenter has locked this room to new students, so you have no seat in it. Ask them to unlock it, then reload this page.');
  await expect(late.status).toHaveAttribute('data-state', 'locked-out');
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
  await expect(first.status).toHaveText('The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room.', { timeout: 30_000 });
  await expect(first.status).toHaveAttribute('data-state', 'removed');
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

  // Closed: said as closed to both; no join link or code left to share, no "connections unknown".
  await page.getByTestId('room-close').click();
  await expect(presenter.status).toHaveText('The room is closed: nobody can join it and nothing more is stored. Create a new room for another run.', { timeout: 30_000 });
  await expect(page.getByTestId('room-join')).toHaveCount(0);
  await expect(page.getByTestId('room-qr')).toHaveCount(0);
  await expect(page.getByTestId('room-panel')).not.toContainText('unknown');
  await expect(late.status).toHaveText('The room is closed: nothing more is sent to it.', { timeout: 30_000 });
  await expect(late.status).toHaveAttribute('data-state', 'closed');
  await expect(late.page.getByTestId('room-panel')).not.toContainText('unknown');
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

test('End the run now closes the class with what finished; Run again with new seeds is a second run, not the first re-sent', async ({ page, browser }) => {
  test.setTimeout(300_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  const firstCode = ((await page.getByTestId('room-join-code').locator('strong').textContent()) ?? '').replace(' ', '');
  const quick = await Student.join(browser, link);
  const slow = await Student.join(browser, link);
  perTest.students.push(quick, slow);
  const seeds = [(await quick.seatAndSeed()).seed, (await slow.seatAndSeed()).seed];
  // One RL step a second, then paused: the slow browser is still training when the quick one is done.
  await slow.page.getByTestId('speed').selectOption('1');
  await presenter.startForEverybody();
  await slow.lab.waitForStep(1);
  await slow.lab.button('pause').click();
  await expect(page.getByTestId('room-run-again')).toHaveCount(0);
  await quick.lab.waitForPhase('done');
  await expect(presenter.seat(0)).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  await expect(presenter.seat(1)).toHaveAttribute('data-done', 'false');

  // End now: the room closes, the class's numbers are over the one run that finished.
  await page.getByTestId('room-end-now').click();
  await expect(presenter.status).toHaveText('The room is closed: nobody can join it and nothing more is stored. Create a new room for another run.', { timeout: 30_000 });
  await expect(page.getByTestId('room-progress')).toHaveText("The run was ended: 1 of 2 browsers had finished 6 RL steps; the class's numbers are over those that finished.");
  // The projector's class scoreboard: over the one run that finished.
  await page.getByTestId('room-projector').click();
  await expect(page.getByTestId('projector-progress')).toHaveText("The run was ended: 1 of 2 browsers had finished 6 RL steps; the class's numbers are over those that finished.");
  await expect(page.getByTestId('scoreboard-mean')).toHaveAttribute('data-seeds', '1', { timeout: 30_000 });
  await page.getByTestId('projector-exit').click();

  // Run again: a new room (a new link), seeds after every seed of the first run.
  await page.getByTestId('room-run-again').click();
  await expect(presenter.status).toHaveText('Online: room open, waiting for Start.', { timeout: 30_000 });
  const again = await page.getByTestId('room-link').inputValue();
  expect(new URL(again).searchParams.get('room')).not.toBe(new URL(link).searchParams.get('room'));
  await expect(page.getByRole('heading', { name: `Class room: Quick look, seed ${Math.max(...seeds) + 1}` })).toBeVisible();
  await quick.open(again);
  expect((await quick.seatAndSeed()).seed).toBe(Math.max(...seeds) + 1);
  await presenter.startForEverybody();
  // A fresh run of a new seed: it trains (the first round's saved run is not re-sent as this one).
  await expect(quick.lab.phase).not.toHaveAttribute('data-phase', 'idle', { timeout: 60_000 });
  await quick.lab.waitForPhase('done');
  await expect(presenter.status).toHaveText('Online: the class run is over.', { timeout: 60_000 });
  await expect(page.getByTestId('room-run-again')).toBeVisible();

  // The short join code: typed on the room server's own address, it seats a student; the first
  // (closed) room's code leads nowhere.
  const shown = (await page.getByTestId('room-join-code').locator('strong').textContent())!;
  expect(shown).toMatch(/^[A-Z2-9]{3} [A-Z2-9]{3}$/);
  const origin = perTest.server.url.replace(/^ws/, 'http').replace(/\/room$/, '');
  await expect(page.getByTestId('room-join-code')).toContainText(`Or open ${origin} and type the code ${shown}`);
  const typist = new Student(await (await browser.newContext()).newPage(), undefined as never);
  await typist.page.goto(`${origin}/?backend=wasm`);
  await typist.page.getByTestId('room-toggle').click();
  await typist.page.getByTestId('room-code').fill(firstCode.toLowerCase());
  await typist.page.getByTestId('room-code-join').click();
  await expect(typist.page.getByTestId('room-error')).toHaveText('No open room has this code: check it, or ask for the link.');
  await typist.page.getByTestId('room-code').fill(shown.toLowerCase());
  await typist.page.getByTestId('room-code-join').click();
  await expect(typist.page).toHaveURL(/[?&]room=[A-Za-z0-9_-]{22}/);
  const seat = await typist.seatAndSeed();
  expect(seat.seat).toBe(1);
  await typist.page.context().close();
});
