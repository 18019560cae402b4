// The red-team's fast attacks through the real server process (cli/room/room.ts in
// a child process), each attacker from loopback addresses of its own, a legitimate class streaming
// meanwhile: the process lives, the attack's bound holds, and the class keeps getting its acks.
// All of them, slow ones included: `npm run room -- --attack` (docs/ROOM.md, "Red team").
import { afterAll, describe, expect, it } from 'vitest';
import { ATTACKS } from './attacks';
import { AttackSession } from './run';

const session = new AttackSession();
afterAll(() => session.stop());

describe('red team (fast attacks, real server process)', () => {
  for (const [i, attack] of ATTACKS.entries()) {
    if (!attack.fast) continue;
    it(`${attack.id}: ${attack.bound}`, async () => {
      const row = await session.run(attack, i + 1);
      expect({ alive: row.alive, saw: row.saw, classProblems: row.classProblems }).toEqual({ alive: true, saw: row.saw, classProblems: [] });
      expect(row.classAcks, 'the class got acks during the attack').toBeGreaterThan(0);
      expect(row.pass, row.saw).toBe(true);
    });
  }
});
