// A task of one's own checked off the room server's event loop (taskChecks.ts), against the real
// server process: while the slowest task the check accepts is being checked, another device's room
// is created and its pings answered (an order of events, not a time); a check past its budget is
// stopped and refused in words, and the next is checked by a new worker; an address has at most two
// checks waiting and a budget of checking time a minute. Each address is a device of its
// own (127.7.x.y). The waits are for answers; their bounds only stop a hung test.
import { afterEach, describe, expect, it } from 'vitest';
import { dataTask, heavyTask, ownTaskSpec, raw, createMsg, type Raw } from './attack/tools';
import { startTarget, type Target } from './attack/target';
import { createRoom, joinRoom, presetSpec } from './load/harness';
import type { ServerMessage } from '../src/room/protocol';

/** A bound that only stops a hung test: the answers come long before it. */
const HANG = 90_000;

let t: Target | null = null;
afterEach(async () => {
  await t?.stop();
  t = null;
});

const answered = (m: ServerMessage) => m.t === 'created' || m.t === 'error';
const said = (m: ServerMessage | null) => (m === null ? 'no answer' : m.t === 'error' ? `error ${m.code}: ${m.message}` : m.t);

async function device(url: string, from: string): Promise<Raw> {
  const r = await raw(url, from);
  if (!r) throw new Error(`the server refused a connection from ${from}`);
  return r;
}

describe('tasks of their own, checked off the event loop', () => {
  it("answers another device's create and pings while a heavy task is checked", async () => {
    t = await startTarget();
    const heavy = await device(t.url, '127.7.1.1');
    heavy.send(createMsg(ownTaskSpec(heavyTask(), { checked: false }), 'heavy'));
    // Another device connects after the heavy create was sent: its room and five pings, one after another.
    const other = await device(t.url, '127.7.1.2');
    other.send(createMsg(presetSpec('quick'), 'another class'));
    const created = await other.waitFor(answered, HANG);
    let pongs = 0;
    for (let i = 0; i < 5; i++) {
      const n = other.got.length;
      other.send({ t: 'ping' });
      if (await other.waitFor((m) => m.t === 'pong' && other.got.indexOf(m) >= n, HANG)) pongs++;
    }
    // All of that came before the heavy create had any answer.
    const heavyBefore = heavy.got.length;
    const heavyAnswer = await heavy.waitFor(answered, HANG);
    heavy.close();
    other.close();
    expect(said(created)).toBe('created');
    expect(pongs).toBe(5);
    expect(heavyBefore).toBe(0);
    // Created (its check fitted the budget) or refused for its time, in words; never a silent hang.
    expect(said(heavyAnswer)).toMatch(/^created$|^error too-large: its task takes more than 10 s to check/);
    expect(t.alive()).toBe(true);
  }, 2 * HANG);

  it('stops a check past its budget and refuses it in words; the next check gets a new worker', async () => {
    // A budget of 20 ms: the heavy task's check takes 0.2-0.4 s (at load 30), so every one is stopped.
    t = await startTarget({ args: ['--limits', 'taskCheckMs=20'] });
    const refusals: string[] = [];
    for (let n = 1; n <= 2; n++) {
      const r = await device(t.url, '127.7.2.1');
      r.send(createMsg(ownTaskSpec(heavyTask(n), { checked: false }), `heavy ${n}`));
      refusals.push(said(await r.waitFor(answered, HANG)));
      r.close();
    }
    // Each stopped at the budget: the second was served by the worker started after the first was stopped.
    expect(refusals).toEqual([0, 1].map(() => expect.stringMatching(/^error too-large: its task takes more than 0\.02 s to check on this room server/)));
    expect(t.output().match(/stopped checking a task from 127\.7\.2\.1 after 0\.02 s/g)).toHaveLength(2);
    expect(t.alive()).toBe(true);
  }, 2 * HANG);

  it("bounds one address's checks: two waiting at most, and its checking time a minute", async () => {
    // Each check stopped at 20 ms; 30 ms of checking a minute an address.
    t = await startTarget({ args: ['--limits', 'taskCheckMs=20,taskCheckMsPerMinute=30'] });
    const a = await device(t.url, '127.7.3.1');
    // Three at once: the third is refused at once, before the first two are answered.
    for (let n = 1; n <= 3; n++) a.send(createMsg(ownTaskSpec(heavyTask(n), { checked: false }), `heavy ${n}`));
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) answers.push(said(await a.waitFor((x) => answered(x) && a.got.indexOf(x) >= i, HANG)));
    expect(answers[0]).toMatch(/^error over-quota: At most 2 tasks of one address are checked at a time/);
    expect(answers.slice(1)).toEqual([0, 1].map(() => expect.stringMatching(/^error too-large: its task takes more than 0\.02 s/)));
    // 40 ms charged against 30 a minute: the address's next is refused without a check; another device's is checked.
    const again = await device(t.url, '127.7.3.1');
    again.send(createMsg(ownTaskSpec(heavyTask(4), { checked: false }), 'heavy 4'));
    expect(said(await again.waitFor(answered, HANG))).toMatch(/^error over-quota: this address has used its 0\.03 s a minute of checking tasks/);
    const other = await device(t.url, '127.7.3.2');
    other.send(createMsg(ownTaskSpec(heavyTask(5), { checked: false }), 'heavy 5'));
    expect(said(await other.waitFor(answered, HANG))).toMatch(/^error too-large: its task takes more than 0\.02 s/);
    for (const r of [a, again, other]) r.close();
  }, 2 * HANG);

  it('bounds the checks waiting on the whole server, whatever the addresses', async () => {
    t = await startTarget({ args: ['--limits', 'taskCheckMs=20,taskChecksWaiting=2'] });
    const devices = await Promise.all([1, 2, 3].map((k) => device(t!.url, `127.7.4.${k}`)));
    // All three sent while the worker starts: two wait, the third is refused at once.
    devices.forEach((r, k) => r.send(createMsg(ownTaskSpec(heavyTask(k), { checked: false }), `heavy ${k}`)));
    const answers = await Promise.all(devices.map(async (r) => said(await r.waitFor(answered, HANG))));
    expect(answers.filter((a) => /^error over-quota: The room server has 2 tasks waiting to be checked/.test(a))).toHaveLength(1);
    expect(answers.filter((a) => /^error too-large: its task takes more than 0\.02 s/.test(a))).toHaveLength(2);
    for (const r of devices) r.close();
  }, 2 * HANG);

  it('opens a room with a data task of 700 and of 5,000 rows, and gives a student its rows', async () => {
    t = await startTarget();
    for (const rows of [700, 5000]) {
      const task = dataTask(rows);
      const { presenter, room } = await createRoom(t.url, { spec: ownTaskSpec(task), name: `${rows} rows` });
      // The student's room frame is read by the page's own parser (RoomClient checks every frame).
      const student = await joinRoom(t.url, room);
      const info = await student.client.waitFor('room');
      const definition = info.room.spec.task.definition;
      expect(definition?.kind === 'data' ? definition.rows.length : 0).toBe(rows);
      expect(student.client.refused).toEqual([]);
      await Promise.all([presenter.close(), student.client.close()]);
    }
  }, 2 * HANG);
});
