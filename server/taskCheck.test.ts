// A task of one's own checked off the room server's event loop (taskChecks.ts), against the real
// server process: while a task that takes seconds to check is being checked, another device's room
// is created and its pings answered (an order of events, not a time); a check past its budget is
// stopped and refused in words, and the next task is checked by a new worker; an address has at
// most two checks waiting and a budget of checking time a minute. Each address is a device of its
// own (127.7.x.y). The waits are for answers; their bounds only stop a hung test.
import { afterEach, describe, expect, it } from 'vitest';
import { dataTask, heavyTask, ownTaskSpec, raw, createMsg, type Raw } from './attack/tools';
import { startTarget, type Target } from './attack/target';
import { presetSpec } from './load/harness';
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

  it('stops a check past its budget, refuses it in words, and checks the next task in a new worker', async () => {
    t = await startTarget({ args: ['--limits', 'taskCheckMs=300'] });
    const heavy = await device(t.url, '127.7.2.1');
    heavy.send(createMsg(ownTaskSpec(heavyTask(), { checked: false }), 'heavy'));
    const refused = await heavy.waitFor(answered, HANG);
    expect(said(refused)).toMatch(/^error too-large: its task takes more than 0\.3 s to check on this room server/);
    // The same device's next create, a small task of its own, is checked (by a new worker) and created.
    const light = await device(t.url, '127.7.2.1');
    light.send(createMsg(ownTaskSpec(dataTask(200)), 'light'));
    expect(said(await light.waitFor(answered, HANG))).toBe('created');
    expect(t.output()).toMatch(/stopped checking a task from 127\.7\.2\.1 after 0\.3 s/);
    heavy.close();
    light.close();
  }, 2 * HANG);

  it("bounds one address's checks: two waiting at most, and its checking time a minute", async () => {
    t = await startTarget({ args: ['--limits', 'taskCheckMs=300,taskCheckMsPerMinute=500'] });
    const a = await device(t.url, '127.7.3.1');
    const spec = ownTaskSpec(heavyTask(), { checked: false });
    // Three at once: the third is refused at once, before the first two are answered.
    for (let i = 0; i < 3; i++) a.send(createMsg(spec, `heavy ${i}`));
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await a.waitFor((x) => answered(x) && a.got.indexOf(x) >= i, HANG);
      answers.push(said(m));
    }
    expect(answers[0]).toMatch(/^error over-quota: At most 2 tasks of one address are checked at a time/);
    expect(answers.slice(1)).toEqual([expect.stringMatching(/^error too-large: its task takes more than 0\.3 s/), expect.stringMatching(/^error too-large/)]);
    // 600 ms charged against 500 a minute: the next is refused without a check; another device's is checked.
    const again = await device(t.url, '127.7.3.1');
    again.send(createMsg(ownTaskSpec(dataTask(200)), 'light'));
    expect(said(await again.waitFor(answered, HANG))).toMatch(/^error over-quota: this address has used its 0\.5 s a minute of checking tasks/);
    const other = await device(t.url, '127.7.3.2');
    other.send(createMsg(ownTaskSpec(dataTask(200)), 'light'));
    expect(said(await other.waitFor(answered, HANG))).toBe('created');
    for (const r of [a, again, other]) r.close();
  }, 2 * HANG);
});
