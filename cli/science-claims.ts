/**
 * The claims of issue 4, as checks over the CLI's results (pure functions; `npm run science` runs
 * the presets and prints these). Each check returns PASS/FAIL and the numbers behind it.
 *
 *   (a) collapse      preset `collapse`: in the self arm a member's label-free reward climbs (ends
 *                     >= 0.7, up >= 0.15) while its held-out pass@1 ends >= 0.1 below its own best,
 *                     or it freezes (reward >= 0.9, entropy <= 0.05); see science-stats COLLAPSE;
 *   (b) peers help    preset `collapse`: the peer arm ends with higher held-out pass@1 than the
 *                     self arm (mean over its two members), and not above the oracle arm (ceiling);
 *   (c) diversity     preset `diversity`: the peer pair with the lowest base error overlap (kappa)
 *                     gains more held-out pass@1 than the pair with the highest (the twins);
 *   (d) ensemble      preset `ensemble-control` (the collapse preset's self and peer arms): the peer pair pooled by maj@G against two
 *                     self-trained models pooled the same way (reported; PASS if peer >= self).
 * A claim passes when its per-seed condition holds in at least 80% of the seeds (rounded up), so a
 * run on 3 seeds needs all 3 and a run on 5 seeds needs 4.
 */
import type { RunSummary } from '../src/core/experiment/events';
import { armMean, armMembers, baseKappa, COLLAPSE, ensembleEnd, fmt, meanSd, fmtMs } from './science-stats';

export interface ClaimResult {
  id: string;
  title: string;
  pass: boolean;
  /** Seeds where the per-seed condition held, of all seeds. */
  held: number;
  seeds: number;
  lines: string[];
}

export const required = (n: number) => Math.ceil(0.8 * n);

function result(id: string, title: string, perSeed: boolean[], lines: string[], extra = true): ClaimResult {
  const held = perSeed.filter(Boolean).length;
  return { id, title, pass: extra && held >= required(perSeed.length), held, seeds: perSeed.length, lines };
}

/** (a) Self-reward collapse on the `collapse` preset's runs. */
export function claimCollapse(runs: RunSummary[]): ClaimResult {
  const lines: string[] = [];
  const perSeed = runs.map((run) => {
    const self = armMembers(run, 'self');
    const oracle = armMembers(run, 'oracle');
    const hit = self.filter((s) => s.collapsed);
    lines.push(
      `seed ${run.seed}: ` +
        self
          .map((s) => `self ${s.member} pass@1 ${fmt(s.passStart)}→best ${fmt(s.passBest)}→end ${fmt(s.passEnd)}, reward ${fmt(s.rewardStart)}→${fmt(s.reward)}, entropy ${fmt(s.entropy)}, top answer ${fmt(s.topShare)}${s.collapsed ? ' COLLAPSED' : ''}`)
          .join('; ') +
        ` | oracle collapsed: ${oracle.filter((s) => s.collapsed).length}/${oracle.length}`,
    );
    return hit.length > 0;
  });
  return result(
    'a',
    `collapse: a self-arm member's reward climbs (ends >= ${COLLAPSE.minReward}, up >= ${COLLAPSE.minRise}) while its held-out pass@1 ends >= ${COLLAPSE.minDrop} below its best (or reward >= ${COLLAPSE.frozenReward} with entropy <= ${COLLAPSE.frozenEntropy})`,
    perSeed,
    lines,
  );
}

/** (b) Peer beats self, oracle is the ceiling, on the `collapse` preset's runs. */
export function claimPeersHelp(runs: RunSummary[]): ClaimResult {
  const lines: string[] = [];
  const peer: number[] = [];
  const self: number[] = [];
  const oracle: number[] = [];
  let weakHeld = 0;
  const perSeed = runs.map((run) => {
    // The member with the lower base pass@1: does the peer reward protect it better than self-reward?
    const weak = [...run.base].sort((x, y) => x.passAt1 - y.passAt1)[0].memberId;
    const weakPeer = armMembers(run, 'peer').find((m) => m.member === weak)?.passEnd ?? NaN;
    const weakSelf = armMembers(run, 'self').find((m) => m.member === weak)?.passEnd ?? NaN;
    if (weakPeer > weakSelf) weakHeld++;
    const p = armMean(run, 'peer', 'passEnd');
    const s = armMean(run, 'self', 'passEnd');
    const o = armMean(run, 'oracle', 'passEnd');
    peer.push(p);
    self.push(s);
    oracle.push(o);
    const members = (arm: string) => armMembers(run, arm).map((m) => `${m.member} ${fmt(m.passEnd)}`).join(' ');
    lines.push(`seed ${run.seed}: end pass@1 (arm mean) oracle ${fmt(o)} [${members('oracle')}], peer ${fmt(p)} [${members('peer')}], self ${fmt(s)} [${members('self')}]${p > s ? '' : '  peer <= self'}; weaker member ${weak}: peer ${fmt(weakPeer)} vs self ${fmt(weakSelf)}`);
    return p > s;
  });
  const o = meanSd(oracle);
  const p = meanSd(peer);
  const s = meanSd(self);
  lines.push(`mean ± sd over seeds: oracle ${fmtMs(o)}, peer ${fmtMs(p)}, self ${fmtMs(s)}; oracle is the ceiling: ${p.mean <= o.mean + 0.02 ? 'yes' : 'NO'}`);
  lines.push(`supplementary (not the claim): the weaker member ends higher under peer than under self reward in ${weakHeld}/${runs.length} seeds`);
  return result('b', 'peers help: peer arm ends above the self arm (held-out pass@1, arm mean), oracle above both', perSeed, lines, p.mean <= o.mean + 0.02);
}

/** (c) Diversity: lower base kappa, more gain, on the `diversity` preset's runs. */
export function claimDiversity(runs: RunSummary[]): ClaimResult {
  const peerArms = runs[0].arms.filter((a) => a.scheme === 'peer').map((a) => a.id);
  const lines: string[] = [];
  const perArm = new Map<string, { kappa: number[]; gain: number[]; coCollapse: number }>();
  for (const id of peerArms) perArm.set(id, { kappa: [], gain: [], coCollapse: 0 });
  const perSeed = runs.map((run) => {
    const cells: string[] = [];
    const seedRows: { id: string; kappa: number; gain: number }[] = [];
    for (const id of peerArms) {
      const ms = armMembers(run, id);
      const k = baseKappa(run, ms[0].member, ms[1].member) ?? NaN;
      const gain = ms.reduce((t, m) => t + m.passEnd - m.passStart, 0) / ms.length;
      const co = ms.every((m) => m.passEnd <= m.passStart - COLLAPSE.minDrop);
      const rec = perArm.get(id)!;
      rec.kappa.push(k);
      rec.gain.push(gain);
      if (co) rec.coCollapse++;
      seedRows.push({ id, kappa: k, gain });
      cells.push(`${id} kappa ${fmt(k)} gain ${gain >= 0 ? '+' : ''}${fmt(gain)}${co ? ' CO-COLLAPSED' : ''}`);
    }
    const self = armMembers(run, 'self');
    cells.push(`self gain ${fmt(self.reduce((t, m) => t + m.passEnd - m.passStart, 0) / self.length)}`);
    lines.push(`seed ${run.seed}: ${cells.join('; ')}`);
    const lo = seedRows.reduce((a, b) => (b.kappa < a.kappa ? b : a));
    const hi = seedRows.reduce((a, b) => (b.kappa > a.kappa ? b : a));
    return lo.gain > hi.gain;
  });
  for (const [id, r] of perArm) {
    lines.push(`${id}: base kappa ${fmtMs(meanSd(r.kappa))}, gain ${fmtMs(meanSd(r.gain))}, co-collapsed in ${r.coCollapse}/${runs.length} seeds`);
  }
  return result('c', 'diversity helps: in each seed, the lowest-kappa peer pair gains more held-out pass@1 than the highest-kappa pair', perSeed, lines);
}

/** (d) The compute-matched ensemble control, on the `ensemble-control` preset's runs. */
export function claimEnsemble(runs: RunSummary[]): ClaimResult {
  const lines: string[] = [];
  const peer: number[] = [];
  const self: number[] = [];
  const perSeed = runs.map((run) => {
    const p = ensembleEnd(run, 'peer');
    const s = ensembleEnd(run, 'self');
    peer.push(p);
    self.push(s);
    lines.push(`seed ${run.seed}: pooled maj@G at the end: peer pair ${fmt(p)}, two self-trained ${fmt(s)}; single-model pass@1 peer ${fmt(armMean(run, 'peer', 'passEnd'))}, self ${fmt(armMean(run, 'self', 'passEnd'))}`);
    return p >= s;
  });
  lines.push(`mean ± sd: peer pair pooled ${fmtMs(meanSd(peer))}, self pair pooled ${fmtMs(meanSd(self))}`);
  return result('d', 'compute-matched control: the peer pair pooled by maj@G is at least as good as two self-trained models pooled the same way', perSeed, lines);
}
