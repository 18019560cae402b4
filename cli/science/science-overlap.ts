/**
 * npx tsx cli/science/science-overlap.ts --from FILE.json[,FILE.json ...] [--seeds LIST] [--power] [--reference FILE.ts --block NAME]
 *
 * Reads result files of the overlap preset (`npm run experiment -- --preset overlap --seeds ...
 * --out FILE.json`) as docs/PREREG-overlap.md says they are read. Per seed (overlapResult.ts):
 * A's held-out gain next to each dial level and the partner's measured base kappa. Then:
 *   primary (one Holm family of two): P1 the drop in A's gain per +1 of the partner's base kappa
 *     (minus the per-seed least-squares slope across the five same-family levels); P2 A's gain
 *     next to the least overlapping level (S) minus next to the most (T). Positive = the papers'
 *     direction (a more different partner teaches more).
 *   secondary (a second Holm family): the accuracy of the partner's votes as A's labels (S minus T),
 *     A's rescue rate (S minus T), and the falsifier's comparison: the cross-family partner X
 *     against the same-family line at X's measured kappa, on A's gain and on the votes' accuracy.
 *   how overlap moved during RL: per level, the mean held-out kappa and A's rescue rate at each
 *     evaluation, and the levels' order at the end against their order at the base.
 * --power: the seeds a confirmation block needs for 80% power on each primary measure (two-sided,
 * Holm's first threshold 0.025), from these seeds' means and standard deviations.
 * --reference: write the seeds' points (partner's base kappa, A's gain; one per seed and level) as
 * the TypeScript module the page's panel draws behind the live points
 * (src/app/panels/overlapReference.ts), labelled with --block (e.g. "confirmation").
 */
import { writeFileSync } from 'node:fs';
import { parseArgs, runMain, seedsFlag, UsageError } from '../common/args';
import { readResultFile } from '../common/result-file';
import { overlapOfRun, slopeOf, type OverlapSeed } from '../../src/core/experiment/overlapResult';
import { describePaired, fmtP, holmVerdicts, paired, type Paired } from './science-paired';
import { seedRange } from './science-plan';
import { overlapClaim } from './science-overlap-claims';

const FLAGS = { from: 'string', seeds: 'string', power: 'boolean', reference: 'string', block: 'string' } as const;

const f = (x: number | null | undefined, d = 2) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d));
const meanOf = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
const num = (x: number | null | undefined) => (typeof x === 'number' && Number.isFinite(x) ? x : NaN);

/** Per seed: the value of a same-family level by partner id minus another's. */
function contrast(seeds: OverlapSeed[], key: 'gainA' | 'pseudoLabelAccuracy' | 'rescueRate'): number[] {
  return seeds.map((o) => {
    const same = o.levels.filter((l) => l.sameFamily);
    return same.length < 2 ? NaN : num(same[0][key]) - num(same[same.length - 1][key]);
  });
}

/** Per seed: the cross-family partner's value minus the same-family line (value on base kappa) at its kappa. */
function crossMinusLine(seeds: OverlapSeed[], key: 'gainA' | 'pseudoLabelAccuracy'): number[] {
  return seeds.map((o) => {
    const same = o.levels.filter((l) => l.sameFamily);
    const cross = o.levels.find((l) => !l.sameFamily);
    if (!cross || cross.baseKappa === null || cross[key] === null) return NaN;
    const xs = same.map((l) => l.baseKappa);
    const ys = same.map((l) => l[key]);
    const b = slopeOf(xs, ys);
    if (b === null) return NaN;
    const pts = same.filter((l) => l.baseKappa !== null && l[key] !== null);
    const mx = meanOf(pts.map((l) => l.baseKappa!));
    const my = meanOf(pts.map((l) => l[key]!));
    return cross[key]! - (my + b * (cross.baseKappa - mx));
  });
}

/** Seeds for 80% power of a two-sided test at level alpha: ((z(1 - alpha/2) + z(0.8)) sd / mean)^2, t-corrected by one round. */
function seedsFor(p: Paired, alpha = 0.025): number {
  const sd = p.se * Math.sqrt(p.n);
  if (!Number.isFinite(sd) || p.mean === 0) return Infinity;
  const z = alpha === 0.025 ? 2.241 : 1.96;
  const n = ((z + 0.842) * sd / Math.abs(p.mean)) ** 2;
  return Math.ceil(n + 2); // about two more seeds for estimating sd (the t quantile's cost at n ~ 10-20)
}

function block(title: string, rows: { name: string; p: Paired }[]): string[] {
  const holm = holmVerdicts(rows.map((r) => r.p));
  return [title, ...rows.map((r, i) => `  ${r.name}: ${describePaired(r.p)}; p ${fmtP(r.p.p)}, Holm p ${fmtP(holm[i].pAdjusted)}: ${holm[i].verdict.toUpperCase()}`)];
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  const from = args.flags.get('from') as string | undefined;
  if (!from) throw new UsageError('usage: npx tsx cli/science/science-overlap.ts --from FILE.json[,FILE.json ...] [--power]');
  // --seeds: read only these seeds of the files (a file may hold seeds of both blocks).
  const only = seedsFlag(args);
  const seeds: OverlapSeed[] = [];
  for (const path of from.split(',')) {
    const r = readResultFile(path);
    if (!r.ok) throw new UsageError(r.error);
    for (const run of r.file.runs) {
      if (only && !only.includes(run.seed)) continue;
      const o = overlapOfRun(r.file.spec, run);
      if (o) seeds.push(o);
    }
  }
  seeds.sort((a, b) => a.seed - b.seed);
  if (!seeds.length) throw new UsageError('no run of these files has a peer arm of its first member');
  const out: string[] = [`seeds ${seeds.map((s) => s.seed).join(',')} (n = ${seeds.length})`, ''];

  // Per level over seeds: base kappa, A's gain, the votes' accuracy, rescue.
  const arms = seeds[0].levels.map((l) => l.arm);
  out.push('level      kind         base kappa (sd)   both-wrong-same  A gain (sd)      partner votes acc  rescue  partner start');
  for (const arm of arms) {
    const ls = seeds.map((o) => o.levels.find((l) => l.arm === arm)!).filter(Boolean);
    const m = (k: 'baseKappa' | 'baseBothWrongSame' | 'gainA' | 'pseudoLabelAccuracy' | 'rescueRate' | 'partnerStart') => paired(ls.map((l) => num(l[k])));
    const sd = (p: Paired) => p.se * Math.sqrt(p.n);
    out.push(`${arm.padEnd(10)} ${ls[0].kind.padEnd(12)} ${f(m('baseKappa').mean)} (${f(sd(m('baseKappa')))})       ${f(m('baseBothWrongSame').mean, 3).padEnd(16)} ${(f(m('gainA').mean) + ' (' + f(sd(m('gainA'))) + ')').padEnd(16)} ${f(m('pseudoLabelAccuracy').mean).padEnd(18)} ${f(m('rescueRate').mean).padEnd(7)} ${f(m('partnerStart').mean)}`);
  }
  out.push(`self: A gain ${f(meanOf(seeds.map((o) => num(o.selfGain))))}; oracle: ${f(meanOf(seeds.map((o) => num(o.oracleGain))))}; A's start ${f(meanOf(seeds.map((o) => num(o.startA))))}`);
  // The plan asks the same-family levels' base kappa to span at least 0.3 on average (per seed: max minus min).
  const span = paired(seeds.map((o) => {
    const k = o.levels.filter((l) => l.sameFamily).map((l) => num(l.baseKappa));
    return Math.max(...k) - Math.min(...k);
  }));
  out.push(`base kappa span of the same-family levels (max minus min, per seed): mean ${f(span.mean)}, sd ${f(span.se * Math.sqrt(span.n))}`, '');

  // The two primary claims as `npm run science -- --overlap` reads them (science-overlap-claims.ts).
  const primary = [
    { name: 'P1 gain lost per +1 kappa (minus the slope)', p: overlapClaim('slope', seeds).stats },
    { name: 'P2 gain next to the least minus the most overlapping level', p: overlapClaim('ends', seeds).stats },
  ];
  const secondary = [
    { name: "S1 partner votes' accuracy, least minus most", p: paired(contrast(seeds, 'pseudoLabelAccuracy')) },
    { name: 'S2 rescue rate, least minus most', p: paired(contrast(seeds, 'rescueRate')) },
    { name: 'S3 cross-family minus the same-family line at its kappa: A gain', p: paired(crossMinusLine(seeds, 'gainA')) },
    { name: "S4 cross-family minus the same-family line at its kappa: partner votes' accuracy", p: paired(crossMinusLine(seeds, 'pseudoLabelAccuracy')) },
  ];
  out.push(...block('primary (Holm over 2):', primary), ...block('secondary (Holm over 4):', secondary), '');

  // Overlap during RL: per level, the mean held-out kappa and rescue at each evaluation.
  out.push('overlap during RL (mean over seeds of the held-out kappa / A rescue rate at each evaluation):');
  const steps = seeds[0].levels[0].overRun.map((p) => p.step);
  out.push(`level      ${steps.map((s) => String(s).padStart(10)).join('')}`);
  for (const arm of arms) {
    const cells = steps.map((s) => {
      const pts = seeds.map((o) => o.levels.find((l) => l.arm === arm)?.overRun.find((p) => p.step === s)).filter((p) => p !== undefined);
      return `${f(meanOf(pts.map((p) => num(p!.kappa))))}/${f(meanOf(pts.map((p) => num(p!.rescue))))}`.padStart(10);
    });
    out.push(`${arm.padEnd(10)} ${cells.join('')}`);
  }
  // Does the dial's order survive: per seed, Spearman's rho of the same-family levels' end kappa against the design order.
  const rhos = seeds.map((o) => {
    const same = o.levels.filter((l) => l.sameFamily);
    const ends = same.map((l) => num(l.overRun[l.overRun.length - 1]?.kappa));
    return spearman(same.map((_, i) => i), ends);
  });
  const end = paired(seeds.flatMap((o) => o.levels.filter((l) => l.sameFamily).map((l) => num(l.overRun[l.overRun.length - 1]?.kappa) - num(l.baseKappa))));
  out.push(`order at the end: Spearman rho of the same-family levels' end kappa with the dial's order, mean ${f(meanOf(rhos.filter(Number.isFinite)))} (per seed ${rhos.map((r) => f(r)).join(' ')})`);
  out.push(`end kappa minus base kappa, all same-family levels and seeds: ${f(end.mean)} [${f(end.lo)}, ${f(end.hi)}] (n = ${end.n})`);

  if (args.flags.has('power')) {
    out.push('', 'power (80%, two-sided, Holm first threshold 0.025) from these seeds:');
    for (const r of primary) out.push(`  ${r.name}: mean ${f(r.p.mean, 3)}, sd ${f(r.p.se * Math.sqrt(r.p.n), 3)}: ${seedsFor(r.p)} seeds`);
  }
  console.log(out.join('\n'));
  const reference = args.flags.get('reference') as string | undefined;
  if (reference) writeFileSync(reference, referenceModule(seeds, (args.flags.get('block') as string | undefined) ?? 'tuning'));
}

/** The panel's reference points as a TypeScript module (generated; 3 decimals). */
function referenceModule(seeds: OverlapSeed[], block: string): string {
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const dots = seeds.flatMap((o) =>
    o.levels
      .filter((l) => l.baseKappa !== null && l.gainA !== null)
      .map((l) => `  { seed: ${o.seed}, arm: '${l.arm}', partner: '${l.partner}', sameFamily: ${l.sameFamily}, kappa: ${r3(l.baseKappa!)}, gain: ${r3(l.gainA!)} },`),
  );
  return [
    '/**',
    ` * The overlap preset's ${block} block (seeds ${seedRange(seeds.map((o) => o.seed))}): per seed and level, the partner's base kappa`,
    " * with A and A's held-out gain next to it. Generated by `npx tsx cli/science/science-overlap.ts --from FILES",
    ` * --reference src/app/panels/overlapReference.ts --block ${block}` + '` (docs/RESULTS.md, "overlap"); do not edit.',
    ' */',
    "import type { OverlapDot } from './overlapPoints';",
    '',
    `export const OVERLAP_REFERENCE_BLOCK = '${block} seeds ${seedRange(seeds.map((o) => o.seed))}';`,
    '',
    'export const OVERLAP_REFERENCE: readonly OverlapDot[] = [',
    ...dots,
    '];',
    '',
  ].join('\n');
}

/** Spearman's rank correlation (average ranks for ties); NaN with fewer than 3 finite pairs. */
function spearman(xs: number[], ys: number[]): number {
  const pts = xs.map((x, i) => [x, ys[i]]).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  if (pts.length < 3) return NaN;
  const rank = (v: number[]) => {
    const order = v.map((x, i) => [x, i]).sort((a, b) => a[0] - b[0]);
    const r = new Array<number>(v.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
      for (let k = i; k <= j; k++) r[order[k][1]] = (i + j) / 2;
      i = j + 1;
    }
    return r;
  };
  const rx = rank(pts.map((p) => p[0]));
  const ry = rank(pts.map((p) => p[1]));
  return slopeOf(rx, ry)! * Math.sqrt(variance(rx) / variance(ry));
}

const variance = (v: number[]) => {
  const m = meanOf(v);
  return v.reduce((s, x) => s + (x - m) ** 2, 0);
};

runMain(main, 'science-overlap');
