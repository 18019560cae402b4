/**
 * Class mode as a class would use it: the real room server (cli/room/room.ts, a child
 * process on a free port with its own data directory, started and killed by each test), a
 * presenter's page, and students' pages each in their own browser context (own localStorage and
 * saved runs: own seat). The quick preset on wasm, so a student's run takes seconds.
 *
 *   1. a class: join, seats and seeds, locked experiment, Start waits for the presenter, the class
 *      live on the presenter's page, the room's export opened in a fresh page as 3 seeds;
 *   2. a student leaves mid-run and comes back: same seat and seed, its whole run reaches the room;
 *   3. the server is killed mid-run and started again: the pages say so, reconnect by themselves,
 *      and every seat's run reaches the room whole;
 *   4. a hostile client sends junk during a class: errors, the server stays up, the class is untouched;
 *   5. a paired room (two browsers train the peer arm's two members).
 */
import { readFileSync } from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { ROOM_LIMITS } from '../src/room/protocol';
import { Presenter, Student } from './helpers/classRoom';
import { JunkClient } from './helpers/junkClient';
import { LabPage } from './helpers/lab';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

/** The quick preset's RL steps. */
const STEPS = 6;

const perTest = roomServerPerTest<Student>();


async function join(browser: Parameters<typeof Student.join>[0], link: string): Promise<Student> {
  const s = await Student.join(browser, link);
  perTest.students.push(s);
  return s;
}

interface ExportedRun {
  spec: { seed: number; steps: number; arms?: { id: string }[]; members?: { id: string }[] };
  events: { type: string; step?: number; arms?: { armId: string; members: Record<string, unknown> }[] }[];
}
interface ExportedFile {
  format: string;
  version: number;
  name: string;
  record: ExportedRun;
  seeds?: ExportedRun[];
}

/** Export the room: the downloaded run file, parsed, and its path. */
async function exportRoom(page: Page, path: string): Promise<ExportedFile> {
  const button = page.getByTestId('room-export');
  await expect(button).toBeEnabled({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toMatch(/^cohort-lab-room-[A-Za-z0-9_-]{6}\.json$/);
  await download.saveAs(path);
  return JSON.parse(readFileSync(path, 'utf8')) as ExportedFile;
}

/** A run's events as words: the base, each RL step, the end. A whole run: base, step 1..n, done. */
const eventNames = (run: ExportedRun) => run.events.map((e) => (e.type === 'step' ? `step ${e.step}` : e.type));
const wholeRun = (steps: number) => ['base', ...Array.from({ length: steps }, (_, i) => `step ${i + 1}`), 'done'];

/** The room id of a join link. */
const roomOf = (link: string) => new URL(link).searchParams.get('room')!;

test('a class: three students join, wait for the presenter, train together, and the presenter sees and exports the class', async ({ page, browser }, info) => {
  test.setTimeout(420_000);
  const presenter = await Presenter.open(page);
  const baseSeed = 40;
  await presenter.lab.setField('seed', baseSeed);
  const link = await presenter.createRoom(perTest.server.url);

  // The join link: this page with the room and its server; its QR code is drawn.
  const url = new URL(link);
  expect(url.origin).toBe(new URL(page.url()).origin);
  expect(url.searchParams.get('server')).toBe(perTest.server.url);
  expect(url.searchParams.get('backend')).toBeNull();
  const qr = page.getByTestId('room-qr');
  await expect(qr).toBeVisible();
  expect(((await qr.locator('path').getAttribute('d')) ?? '').length).toBeGreaterThan(200);
  const box = await qr.boundingBox();
  expect(box!.width).toBeGreaterThan(80);
  await expect(page.getByTestId('room-no-seats')).toHaveText('No browser has joined yet.');
  // The presenter's experiment is fixed while the room is open.
  await expect(page.getByTestId('experiment-panel')).toHaveAttribute('data-locked', 'true');

  // Three students, one after another: seats 0, 1, 2 with seeds baseSeed + 0, 1, 2.
  for (let i = 0; i < 3; i++) {
    const s = await join(browser, link);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: baseSeed + i });
    await expect(s.status).toHaveText('Online: room open, waiting for Start.');
    // The room's experiment with the seat's seed, locked.
    await expect(s.page.getByTestId('experiment-panel')).toHaveAttribute('data-locked', 'true');
    await expect(s.page.getByTestId('experiment-locked')).toContainText('The class room sets this experiment');
    await expect(s.page.getByTestId('field-seed')).toHaveValue(String(baseSeed + i));
    await expect(s.page.getByTestId('field-seed')).toBeDisabled();
    await expect(s.page.getByTestId('preset-select')).toHaveValue('quick');
    // No Start before the presenter's.
    await expect(s.lab.button('start')).toBeDisabled();
    await expect(s.page.getByTestId('start-reason')).toHaveText("Waiting for the presenter's Start: the whole class starts together.");
    // The room button is the presenter's, not a student's.
    await expect(s.page.getByTestId('room-toggle')).toHaveCount(0);
  }
  await expect(presenter.seats).toHaveCount(3);
  for (let i = 0; i < 3; i++) {
    await expect(presenter.seat(i).locator('td').first()).toHaveText(String(baseSeed + i));
    await expect(presenter.seat(i)).toHaveAttribute('data-connected', 'true');
  }
  // Still nobody trains: every student's run is idle, whatever the students click.
  for (const s of perTest.students) {
    await s.lab.button('start').click({ force: true }).catch(() => {});
    await expect(s.lab.phase).toHaveAttribute('data-phase', 'idle');
  }
  expect(Object.values(await presenter.seatSteps()).every((x) => x.step === 0 && !x.done)).toBe(true);

  const seen = await presenter.recordSeatSteps();
  await presenter.startForEverybody();
  // Every student's run starts by itself and streams to the room.
  for (const s of perTest.students) {
    await expect(s.status).toHaveText('Online: room running.');
    await expect(s.lab.phase).not.toHaveAttribute('data-phase', 'idle', { timeout: 60_000 });
  }
  await presenter.waitAllDone(3, STEPS);
  for (const s of perTest.students) {
    await s.lab.waitForPhase('done');
    // base, 6 steps, done: every event the run made, acknowledged by the room.
    await expect(s.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);
  }

  // The seats table showed the steps rising as the events came, not only each run's end.
  const steps = await seen();
  for (let i = 0; i < 3; i++) {
    const list = steps[i] ?? [];
    expect(list, `seat ${i}'s steps as shown`).toEqual([...list].sort((a, b) => a - b));
    expect(list[list.length - 1]).toBe(STEPS);
    expect(list.filter((x) => x > 0 && x < STEPS).length, `seat ${i} showed steps between the start and the end: ${list.join(' ')}`).toBeGreaterThan(0);
  }

  // The class on the presenter's charts and claims: the mean of 3 browsers over a band.
  const pass = presenter.lab.chart('chart-pass1');
  await expect(pass).toHaveAttribute('data-seeds', '3');
  await expect(pass).not.toHaveAttribute('data-bands', '0');
  expect(((await pass.getAttribute('data-seed-means')) ?? '').split('|').every((l) => l.startsWith('mean of 3 browsers · '))).toBe(true);
  const claims = page.getByTestId('seed-claims');
  await expect(claims).toHaveAttribute('data-unit', 'browser');
  await expect(claims).toHaveAttribute('data-seeds', '3');
  await expect(claims).toHaveAttribute('data-running', 'false');
  await expect(claims.locator('h2')).toHaveText('Claims over 3 browsers');
  for (const id of ['a', 'b', 'learns', 'oracle']) await expect(page.getByTestId(`seed-claim-${id}`)).toContainText(/\d of 3 browsers/);
  const rows = page.getByTestId('seed-claims-row');
  await expect(rows).toHaveCount(3);
  for (let i = 0; i < 3; i++) await expect(rows.nth(i)).toHaveAttribute('data-seed', String(baseSeed + i));

  // Export the room: one run file, the three browsers' whole runs.
  const path = info.outputPath('room.json');
  const file = await exportRoom(page, path);
  expect(file).toMatchObject({ format: 'cohort-lab-run', version: 2 });
  expect(file.seeds).toHaveLength(3);
  expect(file.seeds!.map((r) => r.spec.seed)).toEqual([baseSeed, baseSeed + 1, baseSeed + 2]);
  for (const run of file.seeds!) expect(eventNames(run)).toEqual(wholeRun(STEPS));

  // The file opens in a fresh page (no room) as 3 seeds: bands and claims over 3.
  const fresh = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const lab = new LabPage(await fresh.newPage());
    await lab.open('?backend=wasm');
    const [chooser] = await Promise.all([lab.page.waitForEvent('filechooser'), lab.page.getByTestId('import-run').click()]);
    await chooser.setFiles(path);
    await expect(lab.page.getByTestId('import-ready')).toBeVisible();
    await lab.page.getByTestId('import-show').click();
    await expect(lab.page.getByTestId('imported-banner')).toBeVisible();
    await expect(lab.chart('chart-pass1')).toHaveAttribute('data-seeds', '3');
    await expect(lab.chart('chart-pass1')).not.toHaveAttribute('data-bands', '0');
    const opened = lab.page.getByTestId('seed-claims');
    await expect(opened).toHaveAttribute('data-seeds', '3');
    await expect(opened).toHaveAttribute('data-unit', 'seed');
    await expect(lab.page.getByTestId('seed-claim-a')).toContainText(/\d of 3 seeds/);
    const openedRows = lab.page.getByTestId('seed-claims-row');
    await expect(openedRows).toHaveCount(3);
    for (let i = 0; i < 3; i++) await expect(openedRows.nth(i)).toHaveAttribute('data-seed', String(baseSeed + i));
  } finally {
    await fresh.close();
  }
});

test('a student who closes the page mid-run and opens the link again gets its seat back, and its whole run reaches the room', async ({ page, browser }, info) => {
  test.setTimeout(360_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  const stays = await join(browser, link);
  const leaves = await join(browser, link);
  const before = await leaves.seatAndSeed();
  expect(before.seat).toBe(1);
  // One RL step a second: the run is surely in progress when the page closes.
  await leaves.page.getByTestId('speed').selectOption('1');
  await presenter.startForEverybody();

  await leaves.lab.waitForStep(2);
  expect(await leaves.lab.step()).toBeLessThan(STEPS);
  await leaves.page.close();
  await expect(presenter.seat(1)).toHaveAttribute('data-connected', 'false', { timeout: 60_000 });
  await expect(presenter.seat(1)).toHaveAttribute('data-done', 'false');

  // The join link again, in the same browser: the same seat, the same seed, no new seat.
  await leaves.open(link);
  expect(await leaves.seatAndSeed()).toEqual(before);
  await expect(presenter.seat(1)).toHaveAttribute('data-connected', 'true', { timeout: 60_000 });
  await expect(presenter.seats).toHaveCount(2);
  // Its run goes on (resumed from its saved run) to the end.
  await leaves.lab.waitForPhase('done');
  await expect(leaves.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);
  await stays.lab.waitForPhase('done');
  await presenter.waitAllDone(2, STEPS);

  const file = await exportRoom(page, info.outputPath('room.json'));
  expect(file.seeds!.map((r) => r.spec.seed)).toEqual([before.seed - 1, before.seed]);
  for (const run of file.seeds!) expect(eventNames(run)).toEqual(wholeRun(STEPS));
});

test('the room server killed mid-run and started again: the pages say so, reconnect by themselves, and no event is lost', async ({ page, browser }, info) => {
  test.setTimeout(420_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  const class_ = [await join(browser, link), await join(browser, link)];
  // One RL step a second: the runs go on while the server is down.
  for (const s of class_) await s.page.getByTestId('speed').selectOption('1');
  await presenter.startForEverybody();
  for (const s of class_) await s.lab.waitForStep(1);
  const atKill = await Promise.all(class_.map((s) => s.lab.step()));
  expect(atKill.some((x) => x < STEPS)).toBe(true);

  await perTest.server.kill();
  // Every page says it is offline and trying again; a student's says its run goes on.
  for (const s of class_) await expect(s.status).toHaveText(/^Offline: .*Trying again… Your run goes on, and its results are sent when the room is back\.$/, { timeout: 30_000 });
  await expect(presenter.status).toHaveText(/^Offline: .*Trying again…$/, { timeout: 30_000 });
  // The seats table does not repeat the server's last "connected: yes" while it is unreachable.
  for (let i = 0; i < class_.length; i++) {
    await expect(presenter.seat(i)).toHaveAttribute('data-connected', 'unknown');
    await expect(presenter.seat(i)).toContainText('unknown: the room server is unreachable');
  }
  // The students' runs go on without the room.
  for (let i = 0; i < class_.length; i++) if (atKill[i] < STEPS) await class_[i].lab.waitForStep(atKill[i] + 1);

  await perTest.server.spawn();
  // Back by themselves, with nothing clicked.
  // (Running, or over if every run finished while the server was down.)
  for (const s of class_) await expect(s.status).toHaveText(/^Online: (room running|the class run is over)\.$/, { timeout: 60_000 });
  await expect(presenter.status).toHaveText(/^Online: (room running|the class run is over)\.$/, { timeout: 60_000 });
  for (const s of class_) {
    await s.lab.waitForPhase('done');
    await expect(s.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`, { timeout: 60_000 });
  }
  await presenter.waitAllDone(2, STEPS);
  await expect(presenter.seats).toHaveCount(2);

  // Every seat's run whole on the presenter's side: base, each step once, done.
  const file = await exportRoom(page, info.outputPath('room.json'));
  expect(file.seeds).toHaveLength(2);
  for (const run of file.seeds!) expect(eventNames(run)).toEqual(wholeRun(STEPS));
});

test('a hostile client sends junk during a class: it gets errors, the server stays up, and the class is untouched', async ({ page, browser }) => {
  test.setTimeout(360_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url);
  const room = roomOf(link);
  const class_ = [await join(browser, link), await join(browser, link)];
  for (const s of class_) await s.page.getByTestId('speed').selectOption('1');
  await presenter.startForEverybody();
  for (const s of class_) await s.lab.waitForStep(1);

  const junk = await JunkClient.connect(perTest.server.url);
  // Not JSON, cut short, binary, an unknown message, wrong types: bad-message each.
  const shapeless = ['hello', '{"t":"ping"', Buffer.from([1, 2, 3, 0xff]), '{"t":"teleport"}', '{"t":"event","seq":"0","event":{}}', '{"t":"join","v":1,"room":"../../etc/passwd","seat":null}'];
  for (const j of shapeless) junk.send(j);
  await junk.settle();
  expect(junk.errors.map((e) => e.code)).toEqual(shapeless.map(() => 'bad-message'));
  // A frame over the limit.
  junk.send(JSON.stringify({ t: 'ping', pad: 'x'.repeat(ROOM_LIMITS.frameChars) }));
  // Another seat's index with a wrong token, with none, and a seat that does not exist.
  const wrongToken = 'A'.repeat(22);
  junk.send(JSON.stringify({ t: 'join', v: 1, room, seat: { index: 0, token: wrongToken } }));
  junk.send(JSON.stringify({ t: 'join', v: 1, room, seat: { index: 1 } }));
  junk.send(JSON.stringify({ t: 'join', v: 1, room, seat: { index: 7, token: wrongToken } }));
  // Events without a seat, as if for seat 0.
  const base = { type: 'base', members: [], base: [], baseKappa: [] };
  junk.send(JSON.stringify({ t: 'event', seq: 0, event: base }));
  junk.send(JSON.stringify({ t: 'event', seq: 3, event: base, seat: 0 }));
  // Start and close without the presenter's key; present with a wrong key; another protocol version.
  junk.send(JSON.stringify({ t: 'start' }));
  junk.send(JSON.stringify({ t: 'close' }));
  junk.send(JSON.stringify({ t: 'present', v: 1, room, key: wrongToken }));
  junk.send(JSON.stringify({ t: 'join', v: 2, room, seat: null }));
  // A frame that fails the schema is answered at once, the others in order after the room's
  // work before them: compare what came, not in which order.
  const expected = ['too-large', 'bad-seat', 'bad-message', 'bad-seat', 'not-allowed', 'not-allowed', 'not-allowed', 'not-allowed', 'not-allowed', 'version'];
  await junk.waitFor((r) => r.t === 'error', shapeless.length + expected.length);
  await junk.settle();
  const codes = junk.errors.slice(shapeless.length).map((e) => e.code!);
  expect(codes.sort()).toEqual(expected.sort());
  expect(junk.errors.every((e) => typeof e.message === 'string' && e.message.length > 5)).toBe(true);
  // Nothing it sent was taken as a seat or a room.
  expect(junk.replies.filter((r) => r.t !== 'error' && r.t !== 'pong')).toEqual([]);

  // A burst over the rate limit: dropped with rate-limited; going on closes that connection.
  const flood = await JunkClient.connect(perTest.server.url);
  for (let i = 0; i < ROOM_LIMITS.messageBurst + 100; i++) flood.send('{"t":"ping"}');
  await flood.waitFor((r) => r.t === 'error' && r.code === 'rate-limited');
  for (let i = 0; i < 3 * ROOM_LIMITS.messageBurst; i++) flood.send('{"t":"ping"}');
  expect((await flood.closed).code).toBe(1008);
  // A frame far over the limit closes that connection.
  const huge = await JunkClient.connect(perTest.server.url);
  huge.send('x'.repeat(ROOM_LIMITS.frameChars * 3 + 10));
  expect((await huge.closed).code).toBe(1009);
  await junk.close();

  // The server is up: a fresh connection is answered.
  const fresh = await JunkClient.connect(perTest.server.url);
  await fresh.settle();
  await fresh.close();
  expect(perTest.server.running).toBe(true);

  // The class goes on as if nothing happened: two seats, still running, every run whole.
  await presenter.waitAllDone(2, STEPS);
  await expect(presenter.seats).toHaveCount(2);
  // Every seat done: the room says the class run is over, not "running" beside it.
  await expect(presenter.status).toHaveText('Online: the class run is over.');
  for (const s of class_) {
    await s.lab.waitForPhase('done');
    await expect(s.status).toHaveText('Online: the class run is over.');
    await expect(s.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);
    await expect(s.page.getByTestId('room-seat')).toHaveCount(2);
  }
  const file = await exportRoom(page, test.info().outputPath('room.json'));
  expect(file.seeds).toHaveLength(2);
  for (const run of file.seeds!) expect(eventNames(run)).toEqual(wholeRun(STEPS));
});

test('a paired room: two students each train one member of the peer arm, the odd third trains both alone, and the presenter shows and exports two pairs', async ({ page, browser }, info) => {
  test.setTimeout(420_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(perTest.server.url, { pairing: true });
  const a = await join(browser, link);
  await expect(a.seatLine).toContainText('pair 0: you train member A of the peer arm, your partner (not joined yet) trains the other');
  const b = await join(browser, link);
  await expect(b.seatLine).toContainText('pair 0: you train member B of the peer arm, your partner at seat 0 trains the other');
  await expect(a.seatLine).toContainText('you train member A of the peer arm, your partner at seat 1 trains the other');
  // Partners share the pair's seed.
  const seedA = (await a.seatAndSeed()).seed;
  expect(await b.seatAndSeed()).toEqual({ seat: 1, seed: seedA });
  await expect(presenter.seats).toHaveCount(2);
  await expect(presenter.seat(0)).toHaveAttribute('data-pair', '0');
  await expect(presenter.seat(1)).toHaveAttribute('data-pair', '0');
  await expect(presenter.seat(0)).toContainText('trains A (partner: seat 1)');
  await expect(presenter.seat(1)).toContainText('trains B (partner: seat 0)');
  // A third student is the odd one out: told so, not that a partner left.
  const odd = await join(browser, link);
  await expect(odd.seatLine).toContainText('pair 1: you train member A of the peer arm, your partner (not joined yet) trains the other');

  await presenter.startForEverybody();
  // The odd one out has no partner when the room starts: it trains both members of the peer arm itself, and counts.
  await expect(odd.seatLine).toContainText("pair 1: no partner, so you train both members of the peer arm yourself; your run counts for the class as your pair's", { timeout: 60_000 });
  await expect(presenter.seat(2)).toContainText('trains both alone (partner: none)');
  await expect(odd.page.getByTestId('room-partner-wait')).toHaveCount(0);
  await expect(odd.page.getByTestId('room-no-partner')).toHaveCount(0);
  for (const s of [a, b]) {
    await s.lab.waitForPhase('done', 300_000);
    // Each seat's own run: base, every step, done, all acknowledged by the room.
    await expect(s.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);
    // Its sentences read the member it trained ("self went from NaN to NaN").
    await expect(s.page.getByTestId('claim-sentences')).toBeVisible();
    await expect(s.page.getByTestId('claim-sentences')).not.toContainText('NaN');
    await expect(s.page.getByTestId('claim-sentence-a')).toHaveCount(0);
    await expect(s.page.getByTestId('claim-sentence-learns')).toContainText(/^. This seed: peer's held-out pass@1 (fell by|rose by|stayed level)/);
  }
  // The class ends: the odd one's run is done too (no seat waits for a partner).
  await presenter.waitAllDone(3, STEPS, 300_000);
  await expect(odd.seatLine).toContainText(`Sent to the room: ${STEPS + 2} events.`);

  // Two pairs: pair 0's two seats and pair 1's one on the presenter's charts and claims.
  await expect(presenter.lab.chart('chart-pass1')).toHaveAttribute('data-seeds', '2');
  const claims = page.getByTestId('seed-claims');
  await expect(claims).toHaveAttribute('data-unit', 'pair');
  await expect(claims).toHaveAttribute('data-seeds', '2');
  await expect(claims).toHaveAttribute('data-running', 'false');
  await expect(claims.locator('h2')).toHaveText('Claims over 2 pairs');

  // The export: each pair's run of the peer arm of both members, with the pair's seed: pair 0
  // merged from its two seats, pair 1 the odd seat's own run of both.
  const file = await exportRoom(page, info.outputPath('room.json'));
  expect(file.name).toMatch(/: 2 pairs$/);
  expect(file.seeds).toHaveLength(2);
  expect(file.seeds!.map((p) => p.spec.seed)).toEqual([seedA, seedA + 1]);
  for (const pair of file.seeds!) {
    expect(pair.spec.arms!.map((x) => x.id)).toEqual(['peer']);
    expect(pair.spec.members!.map((m) => m.id)).toEqual(['A', 'B']);
    expect(eventNames(pair)).toEqual(wholeRun(STEPS));
    for (const e of pair.events.filter((x) => x.type === 'step')) {
      expect(e.arms!.map((x) => x.armId)).toEqual(['peer']);
      expect(Object.keys(e.arms![0].members).sort()).toEqual(['A', 'B']);
    }
  }
});

/**
 * The lesson's times (docs/CLASSROOM.md, "A 45-minute lesson"): a peers-learn room, three students
 * joining one after another, Start, the first RL step on each, the class over. Printed as
 * "lesson time: ..." lines; the bounds only catch a broken flow, the lines are the figures.
 */
test('a peers-learn lesson, timed: join, first RL step, the class over', async ({ page, browser }) => {
  test.setTimeout(600_000);
  const seconds = (t0: number) => Number(((Date.now() - t0) / 1000).toFixed(1));
  const times: Record<string, number> = {};
  const presenter = new Presenter(page);
  await presenter.lab.open('?backend=wasm');
  await presenter.lab.choosePreset('peers-learn');
  let t0 = Date.now();
  const link = await presenter.createRoom(perTest.server.url);
  times['create the room'] = seconds(t0);
  for (let i = 0; i < 3; i++) {
    t0 = Date.now();
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    await s.seatAndSeed();
    times[`student ${i + 1}: link opened to seat`] = seconds(t0);
  }
  t0 = Date.now();
  await presenter.startForEverybody();
  for (const [i, s] of perTest.students.entries()) {
    await s.lab.waitForStep(1, 300_000);
    times[`student ${i + 1}: Start to first RL step`] = seconds(t0);
  }
  await expect(presenter.status).toHaveText('Online: the class run is over.', { timeout: 540_000 });
  times['Start to the class run over (120 RL steps, 3 browsers)'] = seconds(t0);
  for (const [what, s] of Object.entries(times)) console.log(`lesson time: ${what}: ${s} s`);
  await test.info().attach('lesson-times.json', { body: JSON.stringify(times, null, 2), contentType: 'application/json' });
  for (let i = 1; i <= 3; i++) expect(times[`student ${i}: link opened to seat`], `student ${i}'s seat`).toBeLessThan(30);
});
