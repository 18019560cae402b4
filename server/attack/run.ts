/**
 * `npm run room -- --attack [--only id,id] [--root DIR]`: every attack (attacks.ts) against the
 * real server process, one after the other, with a legitimate class streaming meanwhile. For each:
 * the process alive, the attack's own bound (memory, disk, refusals), and the class's acks still
 * coming (their p95 during the attack is reported). A server that dies is started again for the
 * next attack. `--root` runs the server of another checkout (e.g. a worktree of an older commit).
 */
import { ATTACKS, type Attack } from './attacks';
import { startClass, type LegitClass } from './legit';
import { startTarget, type Target } from './target';

export interface AttackRow {
  id: string;
  what: string;
  bound: string;
  /** alive, within its bound, and the class kept its acks. */
  pass: boolean;
  alive: boolean;
  saw: string;
  /** The class's acks during the attack and their p95 (ms). */
  classAcks: number;
  classP95: number;
  classProblems: string[];
}

export interface AttackOptions {
  only?: string[];
  fastOnly?: boolean;
  root?: string;
  /** Extra server flags. */
  args?: string[];
  /** A fresh server (and data directory) for each attack, so that no attack meets another's leftovers. */
  fresh?: boolean;
  log?: (line: string) => void;
}

/** The attacker addresses of attack number `k`: 127.9.k.n. */
const addresses = (k: number) => (n: number) => `127.9.${k}.${n}`;

/** A server and a class, started again whenever the server has died; `run` runs one attack (attack number `k`: its addresses). */
export class AttackSession {
  private target: Target | null = null;
  private cls: LegitClass | null = null;

  constructor(private readonly o: AttackOptions = {}) {}

  async run(attack: Attack, k: number): Promise<AttackRow> {
    if (!this.target || !this.target.alive() || this.o.fresh) {
      await this.cls?.stop().catch(() => undefined);
      await this.target?.stop();
      this.target = await startTarget({ root: this.o.root, args: this.o.args });
      this.cls = await startClass(this.target.url);
      await new Promise((r) => setTimeout(r, 500));
    }
    return runOne(attack, k, this.target, this.cls!, this.o.log ?? (() => {}));
  }

  async stop(): Promise<void> {
    await this.cls?.stop().catch(() => undefined);
    await this.target?.stop();
  }
}

export async function runAttacks(o: AttackOptions = {}): Promise<AttackRow[]> {
  const chosen = ATTACKS.filter((a) => (!o.only || o.only.includes(a.id)) && (!o.fastOnly || a.fast));
  const session = new AttackSession(o);
  const rows: AttackRow[] = [];
  try {
    for (const attack of chosen) rows.push(await session.run(attack, ATTACKS.indexOf(attack) + 1));
  } finally {
    await session.stop();
  }
  return rows;
}

async function runOne(attack: Attack, k: number, target: Target, cls: LegitClass, log: (line: string) => void): Promise<AttackRow> {
  log(`attack ${attack.id}: ${attack.what}`);
  attack.prepare?.();
  cls.mark();
  const problemsBefore = cls.problems.length;
  let held = false;
  let saw = '';
  try {
    ({ held, saw } = await attack.run(target, addresses(k)));
  } catch (e) {
    saw = `the attack stopped: ${e instanceof Error ? e.message : String(e)}`;
  }
  // A moment for the class's acks in flight, and for a dying process to be seen dead.
  await new Promise((r) => setTimeout(r, 300));
  const alive = target.alive();
  const classProblems = cls.problems.slice(problemsBefore);
  const row: AttackRow = { id: attack.id, what: attack.what, bound: attack.bound, pass: alive && held && cls.acks() > 0 && classProblems.length === 0, alive, saw: alive ? saw : `THE SERVER EXITED. ${saw}`, classAcks: cls.acks(), classP95: cls.p95(), classProblems };
  log(`  ${row.pass ? 'held' : 'FAILED'}: ${row.saw}; the class: ${row.classAcks} acks, p95 ${row.classP95.toFixed(0)} ms${classProblems.length ? `; ${classProblems.slice(0, 2).join('; ')}` : ''}`);
  return row;
}

/** The rows as a Markdown table (docs/ROOM.md has one). */
export function attackTable(rows: AttackRow[]): string {
  const lines = ['| attack | checked | result | what the server did | the class meanwhile |', '|---|---|---|---|---|'];
  for (const r of rows) {
    const cls = r.classAcks > 0 ? `${r.classAcks} acks, p95 ${r.classP95.toFixed(0)} ms` : 'no acks';
    lines.push(`| ${r.what} | ${r.bound} | ${r.pass ? 'held' : '**failed**'} | ${r.saw.replace(/\|/g, '\\|')} | ${cls}${r.classProblems.length ? ` (${r.classProblems.length} errors)` : ''} |`);
  }
  return lines.join('\n');
}
