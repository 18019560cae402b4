/**
 * The science claims, as checks over the CLI's results (pure functions; `npm run science` runs the
 * presets and prints these; docs/RESULTS.md quotes their verdicts word for word). Every claim is a
 * per-seed paired difference read with science-paired.ts: "shown" when its 95% interval over seeds
 * lies above 0, "not shown" when it straddles 0, "contradicted" when it lies below.
 *
 * On a pair preset (arms oracle, self and peer over the same two members; `collapse` by default):
 *   a       self-reward collapses: the self arm's held-out pass@1 falls (start - end);
 *   early   self-reward first gains (TTRL's early rise): first evaluation - start, self arm;
 *   b       peers beat self: peer end - self end;
 *   learns  the peer arm learns: peer end - peer start;
 *   oracle  the oracle is the ceiling: oracle end - peer end;
 *   truth   the oracle arm learns (the ceiling is a real one): oracle end - oracle start;
 *   d       the compute-matched control: the peer pair pooled by maj@G - two self-trained pooled;
 *   coevolve  (presets with a 'teacher' arm) a partner that learns too teaches more than a frozen
 *           copy of it: the teacher arm's members against the same members in the peer arm;
 *   shorter (presets whose length can change) self-reward shortens the answers: the self arm's
 *           mean response length, start - end (means of the first and last 10% of steps).
 * On the diversity preset (peer arms pairing one anchor with partners of different overlap):
 *   c       the lowest-overlap pair gains more held-out pass@1 than the highest-overlap pair.
 * Arm values are means over the arm's members; pass@1 values are held-out evaluations.
 */
import { seedDifference } from '../../src/core/experiment/claims';
import type { RunSummary } from '../../src/core/experiment/events';
import { armMean, armMembers, basePooled, baseKappa, COLLAPSE_DELTA, ensembleEnd, fmt } from './science-stats';
import { changeWord, describePaired, fmtP, holmVerdicts, paired, type Paired, type Verdict } from './science-paired';

export interface ClaimResult {
  id: string;
  /** What is claimed, in one sentence. */
  title: string;
  /** The paired difference that decides it, e.g. "peer − self, end pass@1". */
  measure: string;
  stats: Paired;
  verdict: Verdict;
  /** Per-seed numbers and supplementary measures (not part of the verdict). */
  lines: string[];
}

export const CLAIM_IDS = ['a', 'early', 'b', 'learns', 'oracle', 'truth', 'd', 'coevolve', 'shorter', 'c'] as const;
export type ClaimId = (typeof CLAIM_IDS)[number];

/** The preset each claim is read on (overridable for the pair claims with --preset). */
export const CLAIM_PRESET: Record<ClaimId, 'pair' | 'diversity'> = {
  a: 'pair',
  early: 'pair',
  b: 'pair',
  learns: 'pair',
  oracle: 'pair',
  truth: 'pair',
  d: 'pair',
  coevolve: 'pair',
  shorter: 'pair',
  c: 'diversity',
};

function claim(id: string, title: string, measure: string, diffs: number[], lines: string[]): ClaimResult {
  const stats = paired(diffs);
  return { id, title, measure, stats, verdict: stats.verdict, lines };
}

/** +0.12 / −0.12; a difference that rounds to zero prints +0.00 (a tie), never −0.00. */
const sign = (x: number) => (Number.isFinite(x) ? `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${fmt(Math.abs(x))}` : '-');
const perSeed = (runs: RunSummary[], d: number[], f: (run: RunSummary, i: number) => string) =>
  runs.map((run, i) => `seed ${run.seed}: ${sign(d[i])}  (${f(run, i)})`);

/** (a) The self arm's held-out pass@1 falls; supplementary: its reward rises, the collapse criterion. */
export function claimCollapse(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => seedDifference(r, 'a'));
  const lines = perSeed(runs, d, (run) =>
    armMembers(run, 'self')
      .map((s) => `${s.member} pass@1 ${fmt(s.passStart)}→${fmt(s.passEnd)}, reward ${fmt(s.rewardStart)}→${fmt(s.reward)}, entropy ${fmt(s.entropy)}${s.collapsed ? ' COLLAPSED' : ''}`)
      .join('; '),
  );
  const rise = paired(runs.map((r) => armMean(r, 'self', 'reward') - armMean(r, 'self', 'rewardStart')));
  const hit = runs.filter((r) => armMembers(r, 'self').some((s) => s.collapsed)).length;
  lines.push(`self reward, end − start: ${describePaired(rise)} (${changeWord(rise)})`);
  lines.push(
    `a self member collapsed (pass@1 smoothed over 3 evaluations fell more than ${COLLAPSE_DELTA} below its smoothed best while the reward rose: docs/METHOD.md, "Collapse") in ${hit}/${runs.length} seeds`,
  );
  return claim('a', "self-reward collapses: the self arm's held-out pass@1 falls", 'self start − self end, pass@1', d, lines);
}

/** (early) Self-reward's early gain: the first evaluation above the start. */
export function claimEarlyGain(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => armMean(r, 'self', 'passFirst') - armMean(r, 'self', 'passStart'));
  const lines = perSeed(runs, d, (run) => armMembers(run, 'self').map((s) => `${s.member} ${fmt(s.passStart)}→${fmt(s.passFirst)}→${fmt(s.passEnd)}`).join('; '));
  return claim('early', 'self-reward first gains: its pass@1 at the first evaluation is above its start', 'self first evaluation − self start, pass@1', d, lines);
}

/** (b) Peers beat self at the end. */
export function claimPeersHelp(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => seedDifference(r, 'b'));
  const lines = perSeed(runs, d, (run) => `peer ${fmt(armMean(run, 'peer', 'passEnd'))}, self ${fmt(armMean(run, 'self', 'passEnd'))}, oracle ${fmt(armMean(run, 'oracle', 'passEnd'))}`);
  return claim('b', 'peer reward beats self-reward: the peer arm ends above the self arm', 'peer end − self end, pass@1', d, lines);
}

/** The virtuous cycle: the accuracy of the partner's votes on the training prompts, peer arm, end − start. */
export function partnerVotesChange(runs: RunSummary[]): Paired {
  return paired(runs.map((r) => armMean(r, 'peer', 'pseudo') - armMean(r, 'peer', 'pseudoStart')));
}

/** (learns) The peer arm ends above its own start; supplementary: the partner's votes get better. */
export function claimPeersLearn(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => seedDifference(r, 'learns'));
  const lines = perSeed(runs, d, (run) =>
    armMembers(run, 'peer')
      .map((s) => `${s.member} ${fmt(s.passStart)}→${fmt(s.passEnd)}, partner votes right ${fmt(s.pseudoStart)}→${fmt(s.pseudo)}, rescue ${fmt(s.rescue)}, shared error ${fmt(s.shared)}`)
      .join('; '),
  );
  const votes = partnerVotesChange(runs);
  lines.push(`accuracy of the partner's votes, end − start (training prompts): ${describePaired(votes)} (${changeWord(votes)})`);
  const maj = paired(runs.map((r) => armMean(r, 'peer', 'majEnd') - armMean(r, 'peer', 'majStart')));
  lines.push(`peer arm maj@G, end − start: ${describePaired(maj)} (${changeWord(maj)})`);
  return claim('learns', 'peer reward teaches: the peer arm ends above its own start', 'peer end − peer start, pass@1', d, lines);
}

/** (oracle) The oracle arm ends above the peer arm. */
export function claimOracleCeiling(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => seedDifference(r, 'oracle'));
  const lines = perSeed(runs, d, (run) => `oracle ${fmt(armMean(run, 'oracle', 'passStart'))}→${fmt(armMean(run, 'oracle', 'passEnd'))}, peer ${fmt(armMean(run, 'peer', 'passEnd'))}`);
  return claim('oracle', 'the true labels stay ahead: the oracle arm ends above the peer arm', 'oracle end − peer end, pass@1', d, lines);
}

/** (truth) The oracle arm learns: GRPO with the true reward raises held-out pass@1. */
export function claimOracleLearns(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => armMean(r, 'oracle', 'passEnd') - armMean(r, 'oracle', 'passStart'));
  const lines = perSeed(runs, d, (run) => armMembers(run, 'oracle').map((s) => `${s.member} ${fmt(s.passStart)}→${fmt(s.passEnd)}`).join('; '));
  return claim('truth', 'GRPO learns from true labels: the oracle arm ends above its start', 'oracle end − oracle start, pass@1', d, lines);
}

/** (d) The compute-matched control: each pair pooled into one maj@G vote. */
export function claimEnsemble(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => ensembleEnd(r, 'peer') - ensembleEnd(r, 'self'));
  const lines = perSeed(runs, d, (run) => `pooled maj@G: peer pair ${fmt(ensembleEnd(run, 'peer'))}, two self-trained ${fmt(ensembleEnd(run, 'self'))}, the pair untrained ${fmt(basePooled(run, 'peer'))}`);
  const vsBase = paired(runs.map((r) => ensembleEnd(r, 'peer') - basePooled(r, 'peer')));
  if (vsBase.n > 0) lines.push(`peer pair pooled, end − untrained pair pooled: ${describePaired(vsBase)} (${changeWord(vsBase)})`);
  return claim('d', 'compute-matched control: the peer pair pooled by majority vote ends above two self-trained models pooled the same way', 'peer pooled − self pooled, maj@G', d, lines);
}

/**
 * (coevolve) The frozen-teacher control: the teacher arm trains some members on the votes of a frozen
 * copy of their partner; the same members in the peer arm learn from a partner that learns too.
 */
export function claimCoevolution(runs: RunSummary[]): ClaimResult {
  const taught = (run: RunSummary) => armMembers(run, 'teacher').map((s) => s.member);
  const pick = (run: RunSummary, armId: string) => {
    const ids = new Set(taught(run));
    const ms = armMembers(run, armId).filter((s) => ids.has(s.member));
    return ms.reduce((t, m) => t + m.passEnd, 0) / ms.length;
  };
  const d = runs.map((r) => pick(r, 'peer') - pick(r, 'teacher'));
  const lines = perSeed(runs, d, (run) =>
    armMembers(run, 'teacher')
      .map((s) => `${s.member}: peer arm ${fmt(pick(run, 'peer'))}, frozen teacher ${fmt(s.passEnd)} (start ${fmt(s.passStart)}; teacher's votes right ${fmt(s.pseudo)})`)
      .join('; '),
  );
  return claim('coevolve', 'a partner that learns teaches more than a frozen copy of it: the peer arm ends above the frozen-teacher arm (same members)', 'peer − frozen teacher, end pass@1', d, lines);
}

/** (shorter) Length degeneration under self-reward; supplementary: the other arms' length change. */
export function claimShorter(runs: RunSummary[]): ClaimResult {
  const d = runs.map((r) => armMean(r, 'self', 'lengthStart') - armMean(r, 'self', 'length'));
  const lines = perSeed(runs, d, (run) =>
    run.arms.map((a) => `${a.id} ${fmt(armMean(run, a.id, 'lengthStart'), 1)}→${fmt(armMean(run, a.id, 'length'), 1)} tokens`).join(', '),
  );
  for (const arm of runs[0].arms.filter((a) => a.id !== 'self')) {
    const p = paired(runs.map((r) => armMean(r, arm.id, 'length') - armMean(r, arm.id, 'lengthStart')));
    lines.push(`${arm.id} arm length, end − start: ${describePaired(p)} (${changeWord(p)})`);
  }
  return claim('shorter', "self-reward shortens the answers: the self arm's mean response length falls", 'self start − self end, tokens', d, lines);
}

/** Any two arms of a preset (--compare X:Y): X's end pass@1 against Y's, arm means. */
export function compareArms(runs: RunSummary[], x: string, y: string): ClaimResult {
  const d = runs.map((r) => armMean(r, x, 'passEnd') - armMean(r, y, 'passEnd'));
  const lines = perSeed(runs, d, (run) => `${x} ${fmt(armMean(run, x, 'passStart'))}→${fmt(armMean(run, x, 'passEnd'))}, ${y} ${fmt(armMean(run, y, 'passStart'))}→${fmt(armMean(run, y, 'passEnd'))}`);
  for (const arm of [x, y]) {
    const g = paired(runs.map((r) => armMean(r, arm, 'passEnd') - armMean(r, arm, 'passStart')));
    lines.push(`${arm} arm, end − start: ${describePaired(g)} (${changeWord(g)})`);
  }
  return claim(`${x} vs ${y}`, `arm ${x} ends above arm ${y}`, `${x} end − ${y} end, pass@1`, d, lines);
}

/**
 * (c) Diversity as a designed comparison: the pairs are fixed before the run by the
 * preset, its peer arms in order from the most similar partner of the anchor to the least similar
 * (`diversity`: twin, sibling, stranger; `families`: same size, wider, another family), and the
 * anchor (the member every peer arm shares) is scored by its own gain, not the pair's mean, which
 * would mix in the partner's own learnability. The claim: the anchor gains more next to its least
 * similar partner than next to its most similar one. Beside it, every pair's base overlap (kappa
 * of maj@G correctness and, finer, the correlation of per-problem pass rates) with intervals, and
 * whether the two ends' overlaps are told apart at all: if they are not, the design has no contrast.
 */
export function claimDiversity(runs: RunSummary[]): ClaimResult {
  const peerArms = runs[0].arms.filter((a) => a.scheme === 'peer' && a.members.length === 2);
  const anchor = peerArms[0].members.find((m) => peerArms.every((a) => a.members.some((x) => x.id === m.id)))?.id ?? peerArms[0].members[0].id;
  const partnerOf = (armId: string) => peerArms.find((a) => a.id === armId)!.members.find((m) => m.id !== anchor)!.id;
  const ownGain = (run: RunSummary, armId: string, member: string) => {
    const m = armMembers(run, armId).find((x) => x.member === member)!;
    return m.passEnd - m.passStart;
  };
  const kappaOf = (run: RunSummary, armId: string) => baseKappa(run, anchor, partnerOf(armId)) ?? NaN;
  const corrOf = (run: RunSummary, armId: string) => {
    const k = run.baseKappa.find((x) => (x.a === anchor && x.b === partnerOf(armId)) || (x.b === anchor && x.a === partnerOf(armId)));
    return k?.passCorrelation ?? NaN;
  };
  const nearest = peerArms[0].id;
  const farthest = peerArms[peerArms.length - 1].id;
  const d = runs.map((run) => ownGain(run, farthest, anchor) - ownGain(run, nearest, anchor));
  const lines = perSeed(runs, d, (run) =>
    peerArms.map((a) => `${a.id} kappa ${fmt(kappaOf(run, a.id))}, ${anchor} ${sign(ownGain(run, a.id, anchor))}, ${partnerOf(a.id)} ${sign(ownGain(run, a.id, partnerOf(a.id)))}`).join('; '),
  );
  lines.push(`pairs fixed by the preset, most similar partner first: ${peerArms.map((a) => `${a.id} (${anchor} with ${partnerOf(a.id)})`).join(', ')}`);
  for (const { id } of peerArms) {
    const own = paired(runs.map((r) => ownGain(r, id, anchor)));
    const partner = paired(runs.map((r) => ownGain(r, id, partnerOf(id))));
    const k = paired(runs.map((r) => kappaOf(r, id)));
    const corr = paired(runs.map((r) => corrOf(r, id)));
    const shared = paired(runs.map((r) => armMean(r, id, 'shared')));
    const co = runs.filter((r) => armMembers(r, id).every((m) => m.collapsed)).length;
    lines.push(
      `${id}: base kappa ${describePaired(k)}${corr.n ? `, pass-rate correlation ${describePaired(corr)}` : ''}; ${anchor}'s own gain ${describePaired(own)} (${changeWord(own)}), ` +
        `${partnerOf(id)}'s ${describePaired(partner)}; shared-error rate at the end ${fmt(shared.mean)}; both members collapsed in ${co}/${runs.length} seeds`,
    );
  }
  // The design's contrast: are the two ends' overlaps told apart on these seeds?
  const kappaGap = paired(runs.map((r) => kappaOf(r, nearest) - kappaOf(r, farthest)));
  const corrGap = paired(runs.map((r) => corrOf(r, nearest) - corrOf(r, farthest)));
  lines.push(
    `overlap, ${nearest} − ${farthest}: kappa ${describePaired(kappaGap)} (${kappaGap.verdict === 'not shown' ? 'not told apart' : 'told apart'})` +
      (corrGap.n ? `, pass-rate correlation ${describePaired(corrGap)} (${corrGap.verdict === 'not shown' ? 'not told apart' : 'told apart'})` : ''),
  );
  return claim(
    'c',
    `a more different partner helps more: the anchor gains more next to its least similar partner than next to its most similar (pairs fixed by the preset)`,
    `${anchor}'s gain next to ${partnerOf(farthest)} − next to ${partnerOf(nearest)}, pass@1`,
    d,
    lines,
  );
}

export const CHECKS: Record<ClaimId, (runs: RunSummary[]) => ClaimResult> = {
  a: claimCollapse,
  early: claimEarlyGain,
  b: claimPeersHelp,
  learns: claimPeersLearn,
  oracle: claimOracleCeiling,
  truth: claimOracleLearns,
  d: claimEnsemble,
  coevolve: claimCoevolution,
  shorter: claimShorter,
  c: claimDiversity,
};

/** The arms (by id) each claim reads; a claim applies to a preset that has them. */
const NEEDS: Record<ClaimId, string[]> = {
  a: ['self'],
  early: ['self'],
  b: ['self', 'peer'],
  learns: ['peer'],
  oracle: ['oracle', 'peer'],
  truth: ['oracle'],
  d: ['self', 'peer'],
  coevolve: ['peer', 'teacher'],
  shorter: ['self'],
  c: [],
};

/** Whether a claim can be read on a preset with these arms. */
export function applies(id: ClaimId, arms: { id: string; scheme: string; members: string[] }[], scratchpad = 'always'): boolean {
  if (id === 'c') return arms.filter((a) => a.scheme === 'peer' && a.members.length === 2).length >= 2;
  if (id === 'shorter') return scratchpad === 'mixed' && arms.some((a) => a.id === 'self');
  return NEEDS[id].every((need) => arms.some((a) => a.id === need));
}

/** The verdict line of a claim, as docs/RESULTS.md quotes it. */
export function verdictLine(r: ClaimResult, preset: string, seeds: number[]): string {
  return `(${r.id}) ${r.verdict.toUpperCase()}: ${r.title} [${preset}, seeds ${seeds.join(',')}; ${r.measure}: ${describePaired(r.stats)}]`;
}

/**
 * The Holm lines of one preset's family of claims read on one block of seeds (science-paired.ts
 * holmVerdicts), in the family's order, as docs/RESULTS.md quotes them beside the verdict lines.
 */
export function holmLines(family: readonly ClaimResult[], preset: string, seeds: number[]): string[] {
  const h = holmVerdicts(family.map((r) => r.stats));
  return family.map(
    (r, i) =>
      `(${r.id}) HOLM ${h[i].verdict.toUpperCase()} [${preset}, seeds ${seeds.join(',')}; family of ${family.length} claim${family.length === 1 ? '' : 's'}; ` +
      `p ${fmtP(r.stats.p)}, Holm-adjusted p ${fmtP(h[i].pAdjusted)}]`,
  );
}
