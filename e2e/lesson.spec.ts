/**
 * A whole peers-learn lesson with a teacher and five students (docs/CLASSROOM.md, "A 45-minute
 * lesson"), on the real room server (cli/room/room.ts in a child process), in a paired room: pairs are
 * made in join order and each student trains one member of the peer arm.
 *
 *   the teacher: the projector view on a 1920x1080 screen, predict first, Start, the class's
 *     numbers, reveal the reference run, end (close the room);
 *   seat 0 on a 390x844 phone and seat 1, which reloads its tab mid-run and goes on, are pair 0;
 *   seat 2 is removed by the teacher mid-run, and a student who joins late (after Start) takes its
 *     seat and goes on with seat 3 (pair 1);
 *   seat 4 is the odd one out: no partner when the room starts, so it trains both members of its
 *     pair itself, and its run counts for the class as its pair's (docs/ROOM.md).
 *
 * What each sees is asserted in words (the status line per state, one set of class numbers with
 * "you" marked, the projector's headline), and screenshots of the projector (1920x1080, 1280x720),
 * a laptop (1280x720) and the phone (390x844) are kept in test-results/. The preset's own 120
 * steps: with fewer the experiment is an edited one, which has no reference run to reveal.
 */
import { type Browser, type Page, expect, test } from '@playwright/test';
import { collectErrors } from './helpers';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1920, height: 1080 } });

const STEPS = 120;
// A partner wait (the seat beside a removed one trains alone after it) longer than the test's way from
// the removal to the late student taking the seat, on however loaded a machine: e2e/partnerLeft.spec.ts tests the wait.
const perTest = roomServerPerTest<Student>(['--partner-wait-s', '600']);

/** A student in a fresh browser context of this window size. */
async function student(browser: Browser, link: string, viewport: { width: number; height: number }, phone = false): Promise<Student> {
  const context = await browser.newContext(phone ? { viewport, isMobile: true, hasTouch: true } : { viewport });
  const s = new Student(await context.newPage(), context);
  perTest.students.push(s);
  await s.open(link);
  return s;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(name) });
}

const WAITING = 'Online: room open, waiting for Start.';
const RUNNING = 'Online: room running.';
const OVER = 'Online: the class run is over.';
const CLOSED = 'The room is closed: nothing more is sent to it.';

test('a whole peers-learn lesson: a teacher and five students, one on a phone, one late, one odd, one removed, one reloading', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const errors = collectErrors(page);
  const teacher = new Presenter(page);
  await teacher.lab.open('?backend=wasm');
  await teacher.lab.choosePreset('peers-learn');
  const link = await teacher.createRoom(perTest.server.url, { pairing: true });
  await page.getByTestId('room-projector').click();
  // A page on 127.0.0.1: the address is this computer's only; projected anyway for the test.
  await page.getByTestId('projector-link-anyway').click();

  // Predict first: the question is on the join screen, before anything trains.
  await expect(page.getByTestId('projector-question')).toHaveText(/^Predict first\. .+ will…$/);

  const phone = await student(browser, link, { width: 390, height: 844 }, true);
  const reloads = await student(browser, link, { width: 1280, height: 720 });
  const removed = await student(browser, link, { width: 1280, height: 800 });
  const waitsForLate = await student(browser, link, { width: 1280, height: 800 });
  const odd = await student(browser, link, { width: 1280, height: 800 });
  const seated = [phone, reloads, removed, waitsForLate, odd];
  for (const [i, s] of seated.entries()) {
    expect((await s.seatAndSeed()).seat).toBe(i);
    await expect(s.status).toHaveText(WAITING);
  }
  await expect(phone.seatLine).toContainText('pair 0: you train member A of the peer arm, your partner at seat 1 trains the other');
  await expect(odd.seatLine).toContainText('pair 2: you train member A of the peer arm, your partner (not joined yet) trains the other');
  await expect(page.getByTestId('projector-count')).toHaveText('5 joined');
  await shot(page, 'lesson-projector-join-1920x1080.png');

  // Start for everybody.
  await page.getByTestId('projector-start').click();
  await expect(page.getByTestId('projector-progress')).toHaveText(/^5 browsers joined; training at RL steps? \d/, { timeout: 60_000 });
  for (const s of seated) await expect(s.status).toHaveText(RUNNING, { timeout: 30_000 });
  await expect(odd.seatLine).toContainText("pair 2: no partner, so you train both members of the peer arm yourself; your run counts for the class as your pair's", { timeout: 60_000 });

  // The teacher removes seat 2 mid-run (asked first): its student is told, its part of the pair stops.
  await removed.lab.waitForStep(2, 300_000);
  await page.getByTestId('projector-drawer-toggle').click();
  await teacher.seat(2).getByTestId('room-seat-remove').click();
  await teacher.seat(2).getByTestId('room-seat-remove-confirm').click();
  await page.getByTestId('projector-drawer-close').click();
  await expect(removed.status).toHaveText(
    "The presenter removed your seat: you are no longer in the class, and nothing more is sent to the room. Your part of your pair's run stopped: it cannot go on without the room.",
    { timeout: 30_000 },
  );
  await expect(removed.lab.phase).toHaveAttribute('data-phase', 'stopped', { timeout: 30_000 });
  // Its partner waits, told why in words.
  await expect(waitsForLate.page.getByTestId('room-no-partner')).toContainText("your partner's seat was freed after your run began", { timeout: 60_000 });

  // A student joins late (after Start): it takes the freed seat 2 and goes on with seat 3.
  const late = await student(browser, link, { width: 1280, height: 800 });
  expect((await late.seatAndSeed()).seat).toBe(2);
  await expect(late.seatLine).toContainText('pair 1: you train member A of the peer arm, your partner at seat 3 trains the other');
  await expect(late.status).toHaveText(RUNNING);
  await late.lab.waitForStep(1, 300_000);
  await expect(waitsForLate.page.getByTestId('room-no-partner')).toHaveCount(0, { timeout: 60_000 });

  // Seat 1 reloads its tab mid-run: the same seat, its run resumed.
  await reloads.lab.waitForStep(5, 300_000);
  await reloads.page.reload();
  expect((await reloads.seatAndSeed()).seat).toBe(1);
  await expect(reloads.status).toHaveText(RUNNING, { timeout: 60_000 });

  // The class's run is over once every seat is done, the odd one's too.
  await expect(page.getByTestId('projector-progress')).toHaveText(`The class run is over: all 5 browsers finished ${STEPS} RL steps.`, { timeout: 540_000 });
  const counted = [phone, reloads, late, waitsForLate, odd];
  for (const s of counted) {
    await s.lab.waitForPhase('done', 60_000);
    await expect(s.status).toHaveText(OVER);
    // One set of class numbers, the projector's, this browser's run marked "you".
    await expect(s.page.getByTestId('hero-key-you')).toHaveText("you: this browser's run");
    // The room trains the peer arm alone: no empty chart of an arm nobody here trains.
    await expect(s.page.getByTestId('hero')).toHaveAttribute('data-arms', 'peer');
    await expect(s.page.getByTestId('hero-key-class')).toHaveText('class: mean of 3 pairs');
    await expect(s.page.getByTestId('scoreboard-mean')).toHaveAttribute('data-seeds', '3');
    const me = (await s.seatAndSeed()).seat;
    await expect(s.seat(me)).toContainText('(you)');
    await expect(s.page.getByTestId('room-class-over')).toContainText('Your run for the class is done and the room has all of it.');
  }

  // The class's numbers on the projector: the headline over the 2 pairs, then the reveal.
  await expect(page.getByTestId('projector-headline')).toHaveText(/^The models graded by a partner got better in \d of 3 pairs\.$/, { timeout: 30_000 });
  // The words on screen define what it draws: a paired room's peer arm, no self or oracle.
  await expect(page.getByTestId('projector-terms')).toContainText('peer: each model');
  await expect(page.getByTestId('projector-terms')).not.toContainText('self:');
  await expect(page.getByTestId('scoreboard-mean')).toHaveAttribute('data-seeds', '3');
  const reveal = page.getByTestId('projector-reveal');
  await expect(reveal).toHaveAttribute('data-revealed', 'no');
  await page.getByTestId('projector-reveal-button').click();
  await expect(reveal).toHaveAttribute('data-revealed', 'yes');
  await expect(page.getByTestId('hero-key')).toContainText('(dashed)');
  await shot(page, 'lesson-projector-1920x1080.png');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'lesson-projector-1280x720.png');
  await shot(reloads.page, 'lesson-laptop-1280x720.png');
  await shot(phone.page, 'lesson-phone-390x844.png');
  await shot(odd.page, 'lesson-odd-1280x800.png');

  // The end: the teacher closes the room; every page says so, and nothing goes on for the pairs.
  await page.getByTestId('projector-drawer-toggle').click();
  await page.getByTestId('room-close').click();
  await expect(page.getByTestId('projector-progress')).toHaveText(`The class run is over: all 5 browsers finished ${STEPS} RL steps.`);
  for (const s of counted) await expect(s.status).toHaveText(CLOSED, { timeout: 30_000 });
  // The room panel's first probe for a room server on the page's own origin is the one expected failure.
  const origin = new URL(page.url()).host;
  expect(errors.filter((e) => !e.includes(`WebSocket connection to 'ws://${origin}/room' failed`))).toEqual([]);
});

/**
 * The same lesson's paired round with the overlap preset (2 RL steps, an evaluation at each, as
 * overlapClass.spec.ts runs it: an edited experiment, so no reference to reveal): a pair on a phone
 * and a laptop trains A with partner S, the odd third trains A with T alone. The projector draws
 * the two partners' charts and a point each; each student's page draws the arm its pair trains.
 */
test('an overlap lesson in pairs: the projector draws each pair\'s partner, each page its own', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const teacher = new Presenter(page);
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  await teacher.lab.open(`?backend=wasm&v=1&preset=overlap&s=${b64({ steps: 2, evalEvery: 1 })}`);
  await expect(page.getByTestId('field-steps')).toHaveValue('2');
  const link = await teacher.createRoom(perTest.server.url, { pairing: true });
  await page.getByTestId('room-projector').click();
  await page.getByTestId('projector-link-anyway').click();
  await expect(page.getByTestId('projector-question')).toHaveText(/^Predict first\. /);

  const phone = await student(browser, link, { width: 390, height: 844 }, true);
  const laptop = await student(browser, link, { width: 1280, height: 720 });
  const odd = await student(browser, link, { width: 1280, height: 800 });
  for (const s of [phone, laptop, odd]) await expect(s.status).toHaveText(WAITING);
  await expect(phone.seatLine).toContainText('pair 0: you train A with partner S');
  await expect(odd.seatLine).toContainText('pair 1: you train A with partner T');
  await expect(page.getByTestId('projector-count')).toHaveText('3 joined');

  await page.getByTestId('projector-start').click();
  await expect(odd.seatLine).toContainText('pair 1: no partner, so you train both A with partner T', { timeout: 60_000 });
  await expect(page.getByTestId('projector-progress')).toHaveText('The class run is over: all 3 browsers finished 2 RL steps.', { timeout: 480_000 });

  // Each page: the arm its pair trained, the class's line over the pairs that trained that arm (one each here), "you" marked.
  for (const [s, arm] of [[phone, 'peer-S'], [laptop, 'peer-S'], [odd, 'peer-T']] as const) {
    await expect(s.status).toHaveText(OVER);
    await expect(s.page.getByTestId('hero')).toHaveAttribute('data-arms', arm);
    await expect(s.page.getByTestId('hero-key-class')).toHaveText('class: mean of the pairs that trained the arm (1 each, 2 in all)');
    await expect(s.seat((await s.seatAndSeed()).seat)).toContainText('(you)');
  }
  // The projector: a main chart per partner the class trained, a point per pair.
  const projector = page.getByTestId('projector');
  await expect(projector.getByTestId('hero')).toHaveAttribute('data-arms', 'peer-S|peer-T', { timeout: 30_000 });
  await expect(projector.getByTestId('overlap-plot')).toHaveAttribute('data-points', '2', { timeout: 60_000 });
  // The story in words for a class of partners, and the claims box pointing at the panel that compares them.
  await expect(page.getByTestId('projector-headline')).toHaveText(/^Graded by a partner, the models got better with S in \d of 1 pair, with T in \d of 1\.$/);
  await expect(page.getByTestId('seed-claims-none')).toContainText('Does a more different partner teach more?');
  await expect(page.getByTestId('projector-terms')).not.toContainText('self:');
  await shot(page, 'overlap-lesson-projector-1920x1080.png');
  await page.setViewportSize({ width: 1280, height: 720 });
  await shot(page, 'overlap-lesson-projector-1280x720.png');
  await shot(phone.page, 'overlap-lesson-phone-390x844.png');
  await shot(laptop.page, 'overlap-lesson-laptop-1280x720.png');

  await page.getByTestId('projector-drawer-toggle').click();
  await page.getByTestId('room-close').click();
  for (const s of [phone, laptop, odd]) await expect(s.status).toHaveText(CLOSED, { timeout: 30_000 });
});
