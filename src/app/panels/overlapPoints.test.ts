import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import type { RunSummary } from '../../core/experiment/events';
import { pairSpec } from '../../core/experiment/memberParts';
import { endsApart, endsContrast, fitLine, isOverlapSpec, overlapDots } from './overlapPoints';
import { OVERLAP_REFERENCE } from './overlapReference';

/** A finished run of the overlap preset in which A gains `gains[i]` next to level i and the base kappas are `kappas`. */
function fakeRun(seed: number, kappas: number[], gains: number[]): RunSummary {
  const spec = getPreset('overlap')!.spec;
  const hist = (end: number) => [{ step: 10, evalPassAt1: 0.5 + end / 2 }, { step: 120, evalPassAt1: 0.5 + end }].map((e) => ({ ...e, rescueRate: 0.3, pseudoLabelAccuracy: 0.8 }));
  const peers = spec.arms.filter((a) => a.scheme === 'peer');
  return {
    seed,
    arms: spec.arms.map((a) => {
      const i = peers.findIndex((p) => p.id === a.id);
      return {
        id: a.id,
        scheme: a.scheme,
        members: a.members.map((m) => ({ id: m, family: 'mlp', params: 1, history: hist(i >= 0 ? gains[i] : 0), collapseStep: null })),
        pairs: [],
        ensemble: [],
      };
    }),
    base: spec.members.map((m) => ({ memberId: m.id, passAt1: 0.5, majAtG: 0.7 })),
    baseKappa: peers.map((p, i) => ({ a: 'A', b: p.members[1], kappa: kappas[i], bothWrongSame: 0.02 })),
    medianStepMs: 1,
    backend: 'wasm',
  } as unknown as RunSummary;
}

describe('the overlap panel points', () => {
  const spec = getPreset('overlap')!.spec;

  it('reads only a spec with a dial', () => {
    expect(isOverlapSpec(spec)).toBe(true);
    expect(isOverlapSpec(getPreset('peers-learn')!.spec)).toBe(false);
    expect(isOverlapSpec(null)).toBe(false);
  });

  it('one point per finished run and level: base kappa across, A gain up; a repeated seed counts once', () => {
    const kappas = [0.0, 0.1, 0.2, 0.3, 0.5, 0.25];
    const gains = [0.3, 0.25, 0.2, 0.15, 0.05, 0.2];
    const dots = overlapDots([{ spec, summary: fakeRun(7, kappas, gains) }, { spec, summary: fakeRun(7, kappas, gains) }]);
    expect(dots).toHaveLength(6);
    expect(dots.map((d) => d.partner)).toEqual(['S', 'B0', 'B50', 'B80', 'T', 'X']);
    expect(dots.map((d) => d.kappa)).toEqual(kappas);
    dots.forEach((d, i) => expect(d.gain).toBeCloseTo(gains[i], 10));
    expect(dots.map((d) => d.sameFamily)).toEqual([true, true, true, true, true, false]);
    // The line goes through the same-family points only: gain = 0.3 - 0.5 kappa.
    const fit = fitLine(dots)!;
    expect(fit.slope).toBeCloseTo(-0.5, 10);
    expect(fit.intercept).toBeCloseTo(0.3, 10);
  });

  it('the shipped reference points are the preset levels', () => {
    expect(OVERLAP_REFERENCE.length).toBeGreaterThan(0);
    for (const d of OVERLAP_REFERENCE) expect(spec.arms.map((a) => a.id)).toContain(d.arm);
  });

  it("the ends, as RESULTS tests them: the shipped block gives its +0.15, above 0 in 10 of 12 seeds", () => {
    const ends = endsContrast(OVERLAP_REFERENCE, 'peer-S', 'peer-T')!;
    expect(ends.seeds).toBe(12);
    expect(ends.mean).toBeCloseTo(0.15, 2);
    expect(ends.above).toBe(10);
    expect(endsContrast([{ seed: 1, arm: 'peer-S', gain: 0.1 }], 'peer-S', 'peer-T')).toBeNull();
    expect(endsContrast([{ seed: 1, arm: 'peer-S', gain: 0.1 }, { seed: 1, arm: 'peer-T', gain: 0.3 }], 'peer-S', 'peer-T')).toEqual({ seeds: 1, mean: -0.19999999999999998, above: 0 });
  });

  it("a paired class room's runs, one level each: one point per pair, and the ends apart (different seeds)", () => {
    const whole = getPreset('overlap')!.spec;
    // Pair 0 trained A with S, pair 1 A with T: each run is its level's pair alone, whose spec has no dial member.
    const pairRun = (seed: number, arm: string, kappa: number, gain: number) => {
      const spec = pairSpec(whole, arm);
      const run = fakeRun(seed, [kappa, kappa, kappa, kappa, kappa, kappa], [gain, gain, gain, gain, gain, gain]);
      const partner = spec.members[1].id;
      return { spec, summary: { ...run, arms: run.arms.filter((a) => a.id === arm), baseKappa: run.baseKappa.filter((k) => k.b === partner) } };
    };
    const runs = [pairRun(31, 'peer-S', 0.1, 0.2), pairRun(32, 'peer-T', 0.8, -0.05)];
    expect(isOverlapSpec(runs[0].spec)).toBe(false);
    const dots = overlapDots(runs);
    expect(dots.map((d) => [d.seed, d.arm, d.partner, d.kappa, d.gain])).toEqual([
      [31, 'peer-S', 'S', 0.1, expect.closeTo(0.2, 9)],
      [32, 'peer-T', 'T', 0.8, expect.closeTo(-0.05, 9)],
    ]);
    expect(endsContrast(dots, 'peer-S', 'peer-T')).toBeNull();
    const apart = endsApart(dots, 'peer-S', 'peer-T')!;
    expect([apart.least.runs, apart.most.runs]).toEqual([1, 1]);
    expect(apart.least.mean).toBeCloseTo(0.2, 9);
    expect(apart.most.mean).toBeCloseTo(-0.05, 9);
    expect(endsApart(dots.slice(0, 1), 'peer-S', 'peer-T')).toBeNull();
  });
});
