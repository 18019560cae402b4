/**
 * Secrets stay with their server, in Chromium with the real room server: a
 * crafted join link `?room=<the real room's id>&server=<another server>` opened by the teacher's
 * page (it holds the room's presenter key) and by a student's page (it holds its seat token). The
 * other server is a plain `ws` server on 127.0.0.2 (another device on the network) that keeps
 * every frame. Before this change both pages connected to it at once, the teacher's sending
 * `present` with its key and the student's `join` with its token. Now each page asks, in words
 * naming that server, and nothing connects before its user's yes; after a yes it gets a join
 * with no secret; after a no, nothing at all. The real room goes on for both.
 */
import { type Page, expect, test } from '@playwright/test';
import { FakeRoomServer } from './helpers/fakeRoomServer';
import { Presenter, Student } from './helpers/classRoom';
import { RoomServerProcess } from './helpers/roomServer';

test.use({ viewport: { width: 1280, height: 900 } });

let server: RoomServerProcess;
let attacker: FakeRoomServer;
let student: Student | null = null;

test.beforeEach(async () => {
  server = await RoomServerProcess.start();
  attacker = await FakeRoomServer.start('127.0.0.2');
});

test.afterEach(async () => {
  const info = test.info();
  await student?.close().catch(() => {});
  student = null;
  if (info.status !== info.expectedStatus) await info.attach('room-server.log', { body: server.output, contentType: 'text/plain' });
  await attacker.close();
  await server.dispose();
});

/** The room secrets (presenter keys, seat tokens) this page's localStorage holds, whatever the entry's name. */
async function heldSecrets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i)!;
      if (!k.startsWith('cohort-lab:room')) continue;
      try {
        const v = JSON.parse(localStorage.getItem(k)!) as { key?: string; seat?: { token?: string } };
        if (v.key) out.push(v.key);
        if (v.seat?.token) out.push(v.seat.token);
      } catch {
        // not a secrets entry
      }
    }
    return out;
  });
}

/** The crafted link: this lab, the real room's id, the other server. */
function crafted(page: Page, room: string): string {
  return `${new URL(page.url()).origin}/?room=${room}&server=${encodeURIComponent(attacker.url)}&backend=wasm`;
}

test("a link naming another server: the teacher's key and a student's token never reach it, and nothing connects before a yes", async ({ page, browser }) => {
  test.setTimeout(240_000);
  const presenter = await Presenter.open(page);
  const link = await presenter.createRoom(server.url);
  const room = new URL(link).searchParams.get('room')!;
  student = await Student.join(browser, link);
  expect((await student.seatAndSeed()).seat).toBe(0);
  const [key] = await heldSecrets(page);
  const [token] = await heldSecrets(student.page);
  expect(key).toMatch(/^[A-Za-z0-9_-]{22}$/);
  expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
  const host = new URL(attacker.url).host;

  // Both pages open the crafted link and settle; the other server has heard nothing from either.
  for (const p of [page, student.page]) {
    await p.goto(crafted(p, room));
    await expect(p.getByRole('heading', { name: 'Cohort Lab', level: 1 })).toBeVisible();
  }
  await page.waitForTimeout(3000);
  expect({ connections: attacker.connections, frames: attacker.frames }).toEqual({ connections: 0, frames: [] });
  // Each page asks instead, naming the server.
  for (const p of [page, student.page]) {
    await expect(p.getByTestId('room-ask')).toBeVisible();
    await expect(p.getByTestId('room-ask-host')).toHaveText(host);
    await expect(p.getByTestId('room-ask-join')).toHaveText(`Join the room on ${host}`);
  }
  expect(attacker.connections).toBe(0);

  // The student says no: nothing is sent, and the page says so.
  await student.page.getByTestId('room-ask-decline').click();
  await expect(student.page.getByTestId('room-notice')).toHaveText(`You did not join the class room on ${attacker.url}: nothing was sent to it, and the lab works alone.`);
  // The teacher says yes: the page joins that server as anybody would, with no secret.
  await page.getByTestId('room-ask-join').click();
  await expect.poll(() => attacker.frames.length, { timeout: 30_000 }).toBeGreaterThan(0);
  await page.waitForTimeout(1000);
  expect(attacker.connections).toBe(1);
  expect(attacker.frames.map((f) => JSON.parse(f) as unknown)).toEqual([{ t: 'join', v: 1, room, seat: null }]);
  expect(attacker.wire).not.toContain(key);
  expect(attacker.wire).not.toContain(token);

  // The real room still has both: the teacher presents it again, the student takes seat 0 again.
  await presenter.lab.open(`?room=${room}&server=${encodeURIComponent(server.url)}&backend=wasm`);
  await expect(presenter.status).toHaveText('Online: room open, waiting for Start.', { timeout: 30_000 });
  await expect(presenter.seats).toHaveCount(1);
  await student.open(link);
  expect((await student.seatAndSeed()).seat).toBe(0);
  expect(attacker.connections).toBe(1);
});
