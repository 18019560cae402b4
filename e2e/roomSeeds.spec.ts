/**
 * A class room's seeds have shipped warm starts (src/core/experiment/roomSeeds.ts; docs/ROOM.md,
 * "Seats and seeds"): a peers-learn room hands its seats the preset's room seeds (109, 110, 111 in
 * join order), the presenter's page says their warm starts ship, and every student's run loads
 * both members' weights from the site (the cohort summary's source "shipped") instead of training
 * them before its first RL step. With seeds baseSeed + index (110, 111, 112), only seed 110's were
 * shipped and the other seats trained theirs.
 */
import { expect, test } from '@playwright/test';
import { roomSeedList } from '../src/core/experiment/roomSeeds';
import { Presenter, Student } from './helpers/classRoom';
import { roomServerPerTest } from './helpers/roomServer';

test.use({ viewport: { width: 1440, height: 900 } });

const perTest = roomServerPerTest<Student>();

test("every seat of a peers-learn room loads its members' shipped warm starts and trains none", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const presenter = new Presenter(page);
  await presenter.lab.open('?backend=wasm');
  await presenter.lab.choosePreset('peers-learn');
  const link = await presenter.createRoom(perTest.server.url);
  const list = roomSeedList('peers-learn');
  for (let i = 0; i < 3; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: list[i] });
  }
  const note = page.getByTestId('room-seeds-note');
  await expect(note).toHaveText(`The first ${list.length} seats get seeds ${list[0]} to ${list[list.length - 1]}, whose warm starts ship with the lab: they start RL at once.`);
  await expect(note).toHaveAttribute('data-warm-start-first', '');
  // The requests each student's page made for warm starts: its own seed's files only, from the rooms' folder.
  const fetched = perTest.students.map(() => [] as string[]);
  perTest.students.forEach((s, i) => s.context.on('request', (r) => /\/warmstarts\//.test(r.url()) && fetched[i].push(new URL(r.url()).pathname)));
  await presenter.startForEverybody();
  for (const s of perTest.students) {
    await s.lab.waitForStep(1, 300_000);
    for (const m of ['A', 'B']) await expect(s.page.getByTestId(`base-source-${m}`)).toHaveText(/^shipped/, { timeout: 30_000 });
  }
  // Seat 1 has the link's seed (110, in the presets' folder); seats 0 and 2 fetched their two files from the rooms' folder.
  for (const i of [0, 2]) expect(new Set(fetched[i].filter((p) => /\/warmstarts\/room\/[0-9a-f]{16}\.json$/.test(p))).size, `seat ${i}`).toBe(2);
});

test("a paired overlap room's first pair trains A and its level's partner from shipped warm starts", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const presenter = new Presenter(page);
  await presenter.lab.open('?backend=wasm');
  await presenter.lab.choosePreset('overlap');
  const link = await presenter.createRoom(perTest.server.url, { pairing: true });
  const first = roomSeedList('overlap')[0];
  const seats: { student: Student; member: string }[] = [];
  for (let i = 0; i < 2; i++) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: first });
    // Pair 0 trains the first level the room hands out (S): seat 0 trains A, seat 1 its partner.
    seats.push({ student: s, member: i === 0 ? 'A' : 'S' });
  }
  const list = roomSeedList('overlap');
  await expect(page.getByTestId('room-seeds-note')).toContainText(`The first ${list.length} pairs get seeds ${first} to ${list.at(-1)}`);
  await presenter.startForEverybody();
  for (const { student, member } of seats) {
    await student.lab.waitForStep(1, 300_000);
    await expect(student.page.getByTestId(`base-source-${member}`)).toHaveText(/^shipped/, { timeout: 30_000 });
  }
});

test("an unpaired overlap room's seats each train A and their own level's partner from shipped warm starts", async ({ page, browser }) => {
  test.setTimeout(420_000);
  const presenter = new Presenter(page);
  await presenter.lab.open('?backend=wasm');
  await presenter.lab.choosePreset('overlap');
  const link = await presenter.createRoom(perTest.server.url);
  const list = roomSeedList('overlap');
  await expect(page.getByTestId('room-seeds-note')).toContainText(`The first ${list.length} seats get seeds ${list[0]} to ${list.at(-1)}`);
  // Seat 0 trains A with S, seat 1 A with T (the room's first two levels), each with its own listed seed.
  const seats: { student: Student; partner: string }[] = [];
  for (const [i, partner] of ['S', 'T'].entries()) {
    const s = await Student.join(browser, link);
    perTest.students.push(s);
    expect(await s.seatAndSeed()).toEqual({ seat: i, seed: list[i] });
    seats.push({ student: s, partner });
  }
  await presenter.startForEverybody();
  for (const { student, partner } of seats) {
    await student.lab.waitForStep(1, 300_000);
    for (const member of ['A', partner]) await expect(student.page.getByTestId(`base-source-${member}`)).toHaveText(/^shipped/, { timeout: 30_000 });
    // Only the level's two members: no other partner is warm-started on this laptop.
    await expect(student.page.locator('[data-testid^="base-source-"]')).toHaveCount(2);
  }
});
