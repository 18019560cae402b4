/**
 * Numbers behind docs/RESULTS.md and `npm run science`: per-member and per-arm summaries of a
 * RunSummary (start / best / end of held-out accuracy, tail averages of the training metrics),
 * mean +- sd over seeds, and the markdown table. Pure functions over the CLI's JSON.
 */
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import type { ExperimentResultFile } from '../../src/core/experiment/resultFile';
import { memberCollapseStep } from '../../src/core/metrics/dynamics';

export interface MemberStats {
  arm: string;
  scheme: string;
  member: string;
  family: string;
  passStart: number;
  /** Held-out pass@1 at the first evaluation after the start (self-reward's early gain shows here). */
  passFirst: number;
  passBest: number;
  passEnd: number;
  majStart: number;
  majBest: number;
  majEnd: number;
  /** Tail averages (last 10% of steps, at least 3 steps). */
  pseudo: number;
  reward: number;
  gap: number;
  entropy: number;
  length: number;
  topShare: number;
  /** Reward at the start (mean of the first 10% of steps, at least 3). */
  rewardStart: number;
  /** Mean response length at the start (head mean, as rewardStart). */
  lengthStart: number;
  /** Pseudo-label accuracy at the start (head mean, as rewardStart): the partner's votes' accuracy. */
  pseudoStart: number;
  /** The mechanism (tail means; metrics/mechanism.ts): own-vote accuracy, rescue and shared-error rates. */
  ownVote: number;
  rescue: number;
  shared: number;
  /** The member's collapse step by the lab's one definition (metrics/dynamics.ts collapseStep), recomputed from its history. */
  collapseStep: number | null;
  /** collapseStep is not null. */
  collapsed: boolean;
}

/**
 * The collapse delta the science reads with: the spec's default, which every preset uses
 * (science.test.ts checks). Result files saved before the one definition of collapse (docs/METHOD.md, "Collapse") hold collapse steps by the runner's
 * earlier rule; the readers here recompute them from the histories by the one definition.
 */
export const COLLAPSE_DELTA = 0.1;

const avg = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

function tailMean(h: MemberHistoryEntry[], key: keyof MemberHistoryEntry, head = false): number {
  const k = Math.max(3, Math.floor(h.length / 10));
  const part = head ? h.slice(0, k) : h.slice(-k);
  return avg(part.map((e) => e[key]).filter((x): x is number => typeof x === 'number' && Number.isFinite(x)));
}

/**
 * Schemes whose reward matches answers against a vote, so a pseudo-label exists. Result files saved
 * before the one definition of collapse hold the member's own vote's accuracy as the oracle's and the intrinsic arms'
 * "pseudo-label accuracy"; it is not read for them.
 */
const hasPseudoLabel = (scheme: string) => scheme !== 'oracle' && scheme !== 'entropy' && scheme !== 'certainty';

export function memberStats(run: RunSummary, armId: string, memberId: string, delta = COLLAPSE_DELTA): MemberStats {
  const arm = run.arms.find((a) => a.id === armId);
  if (!arm) throw new Error(`no arm "${armId}" in the run of seed ${run.seed}`);
  const m = arm.members.find((x) => x.id === memberId);
  if (!m) throw new Error(`no member "${memberId}" in arm ${armId}`);
  const base = run.base.find((b) => b.memberId === memberId);
  const evals = m.history.filter((e) => e.evalPassAt1 !== undefined);
  const pass = [base?.passAt1 ?? NaN, ...evals.map((e) => e.evalPassAt1!)];
  const maj = [base?.majAtG ?? NaN, ...evals.map((e) => e.evalMajAtG!)];
  const s: MemberStats = {
    arm: arm.id,
    scheme: arm.scheme,
    member: m.id,
    family: m.family,
    passStart: pass[0],
    passFirst: pass.length > 1 ? pass[1] : NaN,
    passBest: Math.max(...pass),
    passEnd: pass[pass.length - 1],
    majStart: maj[0],
    majBest: Math.max(...maj),
    majEnd: maj[maj.length - 1],
    pseudo: hasPseudoLabel(arm.scheme) ? tailMean(m.history, 'pseudoLabelAccuracy') : NaN,
    reward: tailMean(m.history, 'reward'),
    gap: tailMean(m.history, 'rewardGap'),
    entropy: tailMean(m.history, 'entropy'),
    length: tailMean(m.history, 'length'),
    topShare: tailMean(m.history, 'topAnswerShare'),
    rewardStart: tailMean(m.history, 'reward', true),
    pseudoStart: hasPseudoLabel(arm.scheme) ? tailMean(m.history, 'pseudoLabelAccuracy', true) : NaN,
    lengthStart: tailMean(m.history, 'length', true),
    ownVote: tailMean(m.history, 'ownVoteAccuracy'),
    rescue: tailMean(m.history, 'rescueRate'),
    shared: tailMean(m.history, 'sharedErrorRate'),
    collapseStep: memberCollapseStep(base?.passAt1, m.history, delta),
    collapsed: false,
  };
  s.collapsed = s.collapseStep !== null;
  return s;
}

export function armMembers(run: RunSummary, armId: string): MemberStats[] {
  const arm = run.arms.find((a) => a.id === armId);
  if (!arm) throw new Error(`no arm "${armId}" in the run of seed ${run.seed}`);
  return arm.members.map((m) => memberStats(run, armId, m.id));
}

/** Mean over the arm's members of one field. */
export function armMean(run: RunSummary, armId: string, key: keyof MemberStats): number {
  return avg(armMembers(run, armId).map((s) => s[key] as number));
}

/** Held-out kappa of two members at the base (before RL). */
export function baseKappa(run: RunSummary, a: string, b: string): number | null {
  const k = run.baseKappa.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
  return k ? k.kappa : null;
}

/** The untrained pair's pooled maj@G (base event), for an arm's first two members; NaN if not measured. */
export function basePooled(run: RunSummary, armId: string): number {
  const ms = run.arms.find((a) => a.id === armId)?.members ?? [];
  if (ms.length < 2) return NaN;
  const [a, b] = [ms[0].id, ms[1].id];
  const k = run.baseKappa.find((x) => (x.a === a && x.b === b) || (x.a === b && x.b === a));
  return k?.pooledMajAtG ?? NaN;
}

/** Last pooled maj@G of an arm's first two members (the compute-matched control). */
export function ensembleEnd(run: RunSummary, armId: string): number {
  const arm = run.arms.find((a) => a.id === armId);
  const e = arm?.ensemble ?? [];
  return e.length ? e[e.length - 1].majAtG : NaN;
}

export interface MeanSd {
  mean: number;
  sd: number;
  n: number;
}

/** Mean and sample standard deviation, ignoring NaN. */
export function meanSd(xs: number[]): MeanSd {
  const v = xs.filter((x) => Number.isFinite(x));
  const n = v.length;
  if (n === 0) return { mean: NaN, sd: NaN, n: 0 };
  const mean = avg(v);
  const sd = n > 1 ? Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { mean, sd, n };
}

export const fmt = (x: number | null | undefined, digits = 2): string =>
  // (x + 0 turns a rounded -0 into 0: -0.001 prints 0.00, not -0.00.)
  x === null || x === undefined || !Number.isFinite(x) ? '-' : (Number(x.toFixed(digits)) + 0).toFixed(digits);

export const fmtMs = (m: MeanSd, digits = 2): string => (m.n === 0 ? '-' : `${fmt(m.mean, digits)} ± ${fmt(m.sd, digits)}`);

/**
 * Markdown table: one row per arm and member, mean +- sd over the file's seeds of start / best /
 * end held-out pass@1 and maj@G, and the tail averages. Collapse: in how many seeds the member
 * collapsed by the one definition (metrics/dynamics.ts), and its mean collapse step there.
 */
export function markdownTable(file: ExperimentResultFile): string {
  const runs = file.runs;
  const rows: string[] = [];
  const head = [
    'arm', 'member', 'pass@1 start', 'pass@1 best', 'pass@1 end', 'maj@G start', 'maj@G best', 'maj@G end',
    'pseudo-label acc', 'own vote acc', 'rescue', 'shared error', 'reward', 'reward gap', 'entropy', 'length', 'top-answer share', 'collapsed (seeds)',
  ];
  rows.push(`| ${head.join(' | ')} |`);
  rows.push(`|${head.map(() => '---').join('|')}|`);
  for (const arm of runs[0].arms) {
    for (const m of arm.members) {
      const st = runs.map((r) => memberStats(r, arm.id, m.id, file.spec.collapseDelta ?? COLLAPSE_DELTA));
      const col = (k: keyof MemberStats) => fmtMs(meanSd(st.map((s) => s[k] as number)));
      const steps = st.map((s) => s.collapseStep).filter((x): x is number => x !== null);
      const nCol = st.filter((s) => s.collapsed).length;
      rows.push(
        `| ${arm.id} | ${m.id} (${m.family}) | ${col('passStart')} | ${col('passBest')} | ${col('passEnd')} | ${col('majStart')} | ${col('majBest')} | ${col('majEnd')} | ` +
          `${col('pseudo')} | ${col('ownVote')} | ${col('rescue')} | ${col('shared')} | ${col('reward')} | ${col('gap')} | ${col('entropy')} | ${fmt(meanSd(st.map((s) => s.length)).mean, 1)} | ${col('topShare')} | ` +
          `${nCol}/${st.length}${steps.length ? ` (step ≈ ${fmt(avg(steps), 0)})` : ''} |`,
      );
    }
  }
  return rows.join('\n');
}

/** Markdown table of the base held-out kappa of every member pair, mean +- sd over seeds. */
export function kappaTable(file: ExperimentResultFile): string {
  const pairs = file.runs[0].baseKappa.map((k) => [k.a, k.b] as const);
  const rows = ['| pair | base kappa | pass-rate correlation | both wrong, same answer | untrained pair pooled maj@G |', '|---|---|---|---|---|'];
  for (const [a, b] of pairs) {
    const ks = file.runs.map((r) => r.baseKappa.find((k) => k.a === a && k.b === b)!);
    const pooled = meanSd(ks.map((k) => k.pooledMajAtG ?? NaN));
    const corr = meanSd(ks.map((k) => k.passCorrelation ?? NaN));
    rows.push(`| ${a}–${b} | ${fmtMs(meanSd(ks.map((k) => k.kappa ?? NaN)))} | ${fmtMs(corr)} | ${fmtMs(meanSd(ks.map((k) => k.bothWrongSame)))} | ${fmtMs(pooled)} |`);
  }
  return rows.join('\n');
}

/** Markdown table of the base accuracy of every member, mean +- sd over seeds. */
export function baseTable(file: ExperimentResultFile): string {
  const ids = file.runs[0].base.map((b) => b.memberId);
  const rows = ['| member | base pass@1 | base maj@G |', '|---|---|---|'];
  for (const id of ids) {
    const bs = file.runs.map((r) => r.base.find((b) => b.memberId === id)!);
    rows.push(`| ${id} | ${fmtMs(meanSd(bs.map((b) => b.passAt1)))} | ${fmtMs(meanSd(bs.map((b) => b.majAtG)))} |`);
  }
  return rows.join('\n');
}

/**
 * Markdown table, one row per seed: base pass@1 of each member, each arm's pass@1 (arm mean) at the
 * start and the end, the self arm's collapsed members, and where the preset has self and peer
 * arms the pooled maj@G of the peer pair, the self pair and the untrained pair.
 */
export function perSeedTable(file: ExperimentResultFile): string {
  const first = file.runs[0];
  const arms = first.arms.map((a) => a.id);
  const pooled = arms.includes('peer') && arms.includes('self');
  const head = ['seed', `base ${first.base.map((b) => b.memberId).join(' / ')}`, ...arms.map((a) => `${a} start → end`)];
  if (arms.includes('self')) head.push('collapsed self members');
  if (pooled) head.push('pooled maj@G: peer / self / untrained pair');
  const rows = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const run of file.runs) {
    const cells = [String(run.seed), run.base.map((b) => fmt(b.passAt1)).join(' / ')];
    for (const a of arms) cells.push(`${fmt(armMean(run, a, 'passStart'))} → ${fmt(armMean(run, a, 'passEnd'))}`);
    if (arms.includes('self')) {
      const hit = armMembers(run, 'self').filter((s) => s.collapsed);
      cells.push(hit.map((s) => `${s.member} (${fmt(s.passStart)} → ${fmt(s.passEnd)})`).join(', ') || 'none');
    }
    if (pooled) cells.push(`${fmt(ensembleEnd(run, 'peer'))} / ${fmt(ensembleEnd(run, 'self'))} / ${fmt(basePooled(run, 'peer'))}`);
    rows.push(`| ${cells.join(' | ')} |`);
  }
  return rows.join('\n');
}
