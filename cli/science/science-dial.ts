/**
 * npx tsx cli/science/science-dial.ts [--seeds 1-6] [--candidates fork,labels,cross] [--out FILE.jsonl]
 *
 * Measures the overlap dial's candidates (docs/METHOD.md, "Overlap dial"): for each seed, the
 * anchor A of `peers-learn` and partners warm-started with a share of A's warm start (dialSpec.ts:
 * fork and labels at several shares; a sibling from its own seeds; a partner of another shape),
 * each evaluated at the base on every problem outside the labeled pool (the RL pool and the
 * held-out set: 400 problems, none seen in a warm start) with G = 8 samples. Against A, per
 * partner: Cohen's kappa of plurality correctness (what the runner reports on its 100 held-out
 * problems), the one-sample kappa (sample j of A against sample j of the partner, all 8 pairs per
 * problem pooled: the same quantity with 8 times the judgements), the share both wrong with the
 * same plurality answer, the correlation of per-problem pass rates, and the partner's pass@1.
 * One JSON line per seed and partner on stdout (and --out); a summary table per partner on stderr.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { parseArgs, runMain, seedsFlag } from '../common/args';
import { initNodeBackend } from '../../src/engine/node-backend';
import { getPreset, member } from '../../src/core/experiment/presets';
import { ExperimentSpecSchema, type ExperimentSpec, type MemberSpec } from '../../src/core/experiment/spec';
import { buildMember } from '../../src/core/experiment/cohort';
import { buildDialMember } from '../../src/core/experiment/overlapDial';
import { resolveSpec, warmStartInputs } from '../../src/core/experiment/resolve';
import { evaluatePolicy } from '../../src/core/evaluate';
import { Rng } from '../../src/core/random';
import { dialOverlap } from '../../src/core/experiment/dialOverlap';

const FLAGS = { seeds: 'string', candidates: 'string', out: 'string' } as const;

type MemberInput = Parameters<typeof member>[0];
const anchor = (id: string, extra: Partial<MemberInput> = {}): MemberSpec =>
  member({ id, family: 'mlp', dModel: 64, layers: 2, window: 6, warmStartSteps: 200, warmStartTarget: 0.5, warmStartExamples: 500, ...extra });
const pct = (x: number) => String(Math.round(x * 100)).padStart(3, '0');

/** The candidate partners of A, by group. */
function candidates(groups: Set<string>): MemberSpec[] {
  const out: MemberSpec[] = [anchor('S')];
  if (groups.has('fork')) for (const s of [0, 0.25, 0.5, 0.75, 0.9, 1]) out.push({ ...anchor(`F${pct(s)}`), dial: { from: 'A', mode: 'fork', share: s } });
  if (groups.has('blend')) for (const s of [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95]) out.push({ ...anchor(`B${pct(s)}`), dial: { from: 'A', mode: 'blend', share: s } });
  if (groups.has('labels')) for (const s of [0.25, 0.5, 0.75, 1]) out.push({ ...anchor(`L${pct(s)}`), dial: { from: 'A', mode: 'labels', share: s } });
  if (groups.has('cross')) {
    const wide = { window: 8, dModel: 96, layers: 1 };
    out.push(anchor('X', wide));
    for (const s of [0.5, 1]) out.push({ ...anchor(`X${pct(s)}`, wide), dial: { from: 'A', mode: 'labels', share: s } });
  }
  return out;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  const seeds = seedsFlag(args) ?? [1, 2, 3, 4, 5, 6];
  const groups = new Set(((args.flags.get('candidates') as string | undefined) ?? 'fork,labels,cross').split(','));
  const out = args.flags.get('out') as string | undefined;
  if (out) writeFileSync(out, '');
  await initNodeBackend('wasm');
  const base = getPreset('peers-learn')!.spec;
  const rows: Record<string, number | string | boolean | null>[] = [];
  for (const seed of seeds) {
    // One spec per partner (a spec holds at most 6 members); they share A, whose replay is kept.
    const specOf = (m?: MemberSpec): ExperimentSpec =>
      ExperimentSpecSchema.parse({ ...base, seed, members: [anchor('A'), ...(m ? [m] : [])], arms: [{ id: 'self', scheme: 'self', members: ['A'] }] });
    const spec = specOf();
    // Resolved once (resolve.ts): the split and warm-start inputs a run of this spec would have.
    const x = resolveSpec(spec);
    const inputs = warmStartInputs(x);
    const { task, difficulty: d, split } = x;
    const problems = [...split.rl, ...split.heldOut];
    const evalOpts = (id: string) => ({ groupSize: 8, temperature: 1, maxNewTokens: task.maxCompletionLength(d) + 2, batchSize: 100, rng: new Rng(seed).child(`dial-eval/${id}`) });
    const a = await buildMember(inputs, spec.members[0]);
    const evA = await evaluatePolicy(a.reference, task, d, problems, evalOpts('A'));
    a.reference.dispose();
    for (const input of candidates(groups)) {
      const t0 = Date.now();
      const pairSpec = specOf(input);
      const m = pairSpec.members[1];
      const pair = { ...inputs, spec: pairSpec };
      const w = m.dial ? await buildDialMember(pair, m) : await buildMember(pair, m);
      const ev = await evaluatePolicy(w.reference, task, d, problems, evalOpts(m.id));
      w.reference.dispose();
      const o = dialOverlap(evA, ev, problems.map((p) => p.answer));
      const row = { seed, partner: m.id, mode: m.dial?.mode ?? 'own', share: m.dial?.share ?? 0, reached: w.info.warmStartReached ?? null, steps: w.info.warmStartSteps ?? 0,
        passA: evA.passAt1, pass: ev.passAt1, ...o, seconds: (Date.now() - t0) / 1000 };
      rows.push(row);
      const line = JSON.stringify(row);
      console.log(line);
      if (out) appendFileSync(out, line + '\n');
    }
  }
  const ids = [...new Set(rows.map((r) => r.partner as string))];
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1));
  console.error('partner  kappa(plur)      kappa(1-sample)  bothWrongSame  passCorr  pass@1 (A)   reached');
  for (const id of ids) {
    const rs = rows.filter((r) => r.partner === id);
    const col = (k: string) => rs.map((r) => r[k] as number);
    const ms = (k: string) => `${mean(col(k)).toFixed(2)} ± ${sd(col(k)).toFixed(2)}`;
    console.error(`${id.padEnd(8)} ${ms('kappa').padEnd(15)} ${ms('sampleKappa').padEnd(16)} ${ms('bothWrongSame').padEnd(14)} ${mean(col('passCorrelation')).toFixed(2).padEnd(9)} ${mean(col('pass')).toFixed(2)} (${mean(col('passA')).toFixed(2)})  ${rs.filter((r) => r.reached).length}/${rs.length}`);
  }
}

runMain(main, 'science-dial');
