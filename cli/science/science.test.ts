import { describe, expect, it } from 'vitest';
import type { MemberHistoryEntry, RunSummary } from '../../src/core/experiment/events';
import { COLLAPSE_DELTA, markdownTable, meanSd, memberStats, perSeedTable } from './science-stats';
import { PRESETS } from '../../src/core/experiment/presets';
import { applies, claimCollapse, claimDiversity, claimEnsemble, claimPeersHelp, claimPeersLearn, claimShorter, verdictLine } from './science-claims';
import { readBlock, replaceBlock } from './science-block';
import { figureSvg } from './science-figure';

/**
 * A history of `n` steps with reward going r0 -> r1 and held-out pass@1 every 10 steps: p0 -> p1 in
 * a straight line, or the values `evals` (one per evaluation).
 */
function history(n: number, r0: number, r1: number, p0: number, p1: number, entropy = 0.3, evals?: number[]): MemberHistoryEntry[] {
  return Array.from({ length: n }, (_, i) => {
    const f = (i + 1) / n;
    const e: MemberHistoryEntry = {
      step: i + 1, reward: r0 + (r1 - r0) * f, oracleReward: 0.3, pseudoLabelAccuracy: 0.5, rewardAccuracy: 0.5,
      rewardGap: 0, ownVoteAccuracy: 0.5, rescueRate: 0.3, misleadRate: 0.1, sharedErrorRate: 0.2, labeledFraction: 1, majorityRatio: 0.5, tieRate: 0, entropy, length: 6, capFraction: 0,
      malformedFraction: 0, rewardStd: 0.3, zeroStdFraction: 0.1, supervisionContainsTruth: 0.5, topAnswerShare: 0.2,
      loss: 0, kl: 0, clipFraction: 0, gradNorm: 1,
    };
    if ((i + 1) % 10 === 0) {
      e.evalPassAt1 = evals ? evals[(i + 1) / 10 - 1] : p0 + (p1 - p0) * f;
      e.evalMajAtG = Math.min(1, e.evalPassAt1 + 0.1);
    }
    return e;
  });
}

function run(seed: number, arms: Record<string, { scheme: string; members: Record<string, MemberHistoryEntry[]> }>, base: Record<string, number>, kappa: Record<string, number> = {}): RunSummary {
  return {
    seed,
    arms: Object.entries(arms).map(([id, a]) => ({
      id,
      scheme: a.scheme as RunSummary['arms'][number]['scheme'],
      members: Object.entries(a.members).map(([mid, h]) => ({ id: mid, family: 'mlp', params: 1, history: h, collapseStep: null })),
      pairs: [],
      ensemble: [{ step: 40, majAtG: 0.5 }],
    })),
    base: Object.entries(base).map(([memberId, p]) => ({ memberId, passAt1: p, majAtG: p + 0.1 })),
    baseKappa: Object.entries(kappa).map(([ab, k]) => ({ a: ab[0], b: ab[1], kappa: k, bothWrongSame: 0 })),
    medianStepMs: 1,
    backend: 'wasm',
  };
}

describe('science stats and claims', () => {
  const collapseRun = (seed: number, peerEnd: number) =>
    run(
      seed,
      {
        oracle: { scheme: 'oracle', members: { A: history(40, 0.5, 0.8, 0.6, 0.8), B: history(40, 0.3, 0.5, 0.3, 0.5) } },
        // Self B: 0.3 (base), 0.3, 0.3, 0.1, 0.1 while its reward climbs: smoothed 0.30, 0.23, 0.17 (collapsed at step 40).
        self: { scheme: 'self', members: { A: history(40, 0.6, 0.8, 0.6, 0.6), B: history(40, 0.4, 0.95, 0.3, 0.1, 0.3, [0.3, 0.3, 0.1, 0.1]) } },
        peer: { scheme: 'peer', members: { A: history(40, 0.4, 0.6, 0.6, 0.6), B: history(40, 0.3, 0.5, 0.3, peerEnd) } },
      },
      { A: 0.6, B: 0.3 },
    );

  it('reads start, best and end, and flags collapse by the one definition (metrics/dynamics.ts), recomputed from the history', () => {
    const s = memberStats(collapseRun(1, 0.4), 'self', 'B');
    expect(s.passStart).toBeCloseTo(0.3);
    expect(s.passBest).toBeCloseTo(0.3);
    expect(s.passEnd).toBeCloseTo(0.1);
    expect(s.collapsed).toBe(true);
    // The file says null (the runner's step, here never set): the reader recomputes it.
    expect(s.collapseStep).toBe(40);
    expect(memberStats(collapseRun(1, 0.4), 'oracle', 'A').collapsed).toBe(false);
    // Self A: flat pass@1 while its reward climbs; peer B: 0.3 -> 0.4.
    expect(memberStats(collapseRun(1, 0.4), 'self', 'A').collapsed).toBe(false);
    expect(memberStats(collapseRun(1, 0.4), 'peer', 'B').collapsed).toBe(false);
  });

  it('reads the science with the collapse delta every preset uses', () => {
    for (const p of Object.values(PRESETS)) expect(p.spec.collapseDelta).toBe(COLLAPSE_DELTA);
  });

  it('reads no pseudo-label accuracy for the oracle (old files hold its own vote there)', () => {
    const s = memberStats(collapseRun(1, 0.4), 'oracle', 'A');
    expect(s.pseudo).toBeNaN();
    expect(s.pseudoStart).toBeNaN();
    expect(s.ownVote).toBeCloseTo(0.5);
    expect(memberStats(collapseRun(1, 0.4), 'peer', 'A').pseudo).toBeCloseTo(0.5);
  });

  it('reads (a) and (b) as paired differences over seeds: shown, not shown, contradicted', () => {
    const good = [1, 2, 3].map((s) => collapseRun(s, 0.4 + 0.01 * s));
    const a = claimCollapse(good);
    expect(a.verdict).toBe('shown');
    expect(a.stats.mean).toBeCloseTo(0.1, 6);
    expect(a.lines.join('\n')).toMatch(/collapsed .* in 3\/3 seeds/);
    const b = claimPeersHelp(good);
    // peer (0.6 + 0.41..0.43) / 2 against self (0.6 + 0.1) / 2: +0.155 +- 0.005
    expect(b.verdict).toBe('shown');
    expect(b.stats.wins).toBe(3);
    // One seed where the peer arm loses widely: the interval straddles zero.
    const mixed = [collapseRun(1, 0.4), collapseRun(2, 0.0), collapseRun(3, 0.4)];
    const m = claimPeersHelp(mixed);
    expect(m.verdict).toBe('not shown');
    expect([m.stats.wins, m.stats.ties, m.stats.losses]).toEqual([2, 0, 1]);
    // Ties are ties: a peer arm that ends exactly where the self arm ends.
    const ties = [1, 2, 3].map((s) => collapseRun(s, 0.1));
    expect(claimPeersHelp(ties).stats.ties).toBe(3);
    expect(claimPeersHelp(ties).verdict).toBe('not shown');
    expect(claimPeersLearn([1, 2, 3].map((s) => collapseRun(s, 0.0))).verdict).toBe('contradicted');
    expect(verdictLine(b, 'collapse', [1, 2, 3])).toMatch(/^\(b\) SHOWN: peer reward beats self-reward.*\[collapse, seeds 1,2,3; peer end − self end, pass@1: \+0\.16 \[95% CI \+0\.\d\d, \+0\.\d\d\], 3 wins, 0 ties, 0 losses of 3 seeds\]$/);
  });

  it('(d) reads the pooled pair against the untrained pair where it was measured', () => {
    const r = collapseRun(1, 0.4);
    r.baseKappa = [{ a: 'A', b: 'B', kappa: 0.2, bothWrongSame: 0.1, pooledMajAtG: 0.7 }];
    const d = claimEnsemble([r, { ...r, seed: 2 }]);
    expect(d.lines.join('\n')).toMatch(/the pair untrained 0\.70/);
    expect(d.lines.join('\n')).toMatch(/untrained pair pooled: −0\.20/);
  });

  it('reads length degeneration only where length can move, and says which claims fit a preset', () => {
    const shorten = (seed: number, drop: number) => {
      const r = collapseRun(seed, 0.4);
      for (const m of r.arms.find((a) => a.id === 'self')!.members) m.history.forEach((h, i) => (h.length = 6 - (drop * i) / (m.history.length - 1)));
      return r;
    };
    const s = claimShorter([shorten(1, 2), shorten(2, 2.2), shorten(3, 1.8)]);
    expect(s.verdict).toBe('shown');
    expect(s.stats.mean).toBeGreaterThan(1.5);
    expect(s.lines.join('\n')).toMatch(/peer arm length, end − start: \+0\.00 .*\(no change shown\)/);
    const arms = [{ id: 'oracle', scheme: 'oracle', members: ['A'] }, { id: 'self', scheme: 'self', members: ['A'] }, { id: 'peer', scheme: 'peer', members: ['A', 'B'] }];
    expect(applies('shorter', arms, 'mixed')).toBe(true);
    expect(applies('shorter', arms, 'always')).toBe(false);
    expect(applies('coevolve', arms)).toBe(false);
    expect(applies('b', arms)).toBe(true);
    expect(applies('c', arms)).toBe(false);
  });

  it('quotes verdicts in a markdown block that can be read back and replaced', () => {
    const text = 'intro\n\n<!-- science:collapse -->\n```\nold line\n```\n<!-- /science:collapse -->\n\nafter\n';
    expect(readBlock(text, 'collapse')).toEqual(['old line']);
    expect(readBlock(text, 'diversity')).toBeNull();
    const next = replaceBlock(text, 'collapse', ['(a) SHOWN: x', '(b) NOT SHOWN: y']);
    expect(readBlock(next, 'collapse')).toEqual(['(a) SHOWN: x', '(b) NOT SHOWN: y']);
    expect(next.startsWith('intro')).toBe(true);
    expect(next.endsWith('after\n')).toBe(true);
    expect(readBlock(replaceBlock('x', 'k', ['1']), 'k')).toEqual(['1']);
    // A new Holm block goes right after its verdict block; a table is written without a fence.
    const withHolm = replaceBlock(text, 'collapse/holm', ['(a) HOLM SHOWN'], { after: 'collapse' });
    expect(withHolm).toBe('intro\n\n<!-- science:collapse -->\n```\nold line\n```\n<!-- /science:collapse -->\n\n<!-- science:collapse/holm -->\n```\n(a) HOLM SHOWN\n```\n<!-- /science:collapse/holm -->\n\nafter\n');
    expect(readBlock(withHolm, 'collapse')).toEqual(['old line']);
    const table = replaceBlock('x\n', 'summary', ['| a |', '|---|'], { fenced: false });
    expect(table).toBe('x\n\n<!-- science:summary -->\n| a |\n|---|\n<!-- /science:summary -->\n');
    expect(readBlock(table, 'summary')).toEqual(['| a |', '|---|']);
  });

  it("(c) compares the anchor's own gain next to the pairs the preset fixed, most and least similar partner", () => {
    // Twins: A falls 0.4 -> 0.2, its twin T rises 0.4 -> 0.8 (a pair mean of +0.1 would hide A's loss).
    // Siblings: A rises 0.4 -> 0.5. The arms' order is the design: twins first, siblings last.
    const r = run(
      1,
      {
        self: { scheme: 'self', members: { A: history(40, 0.4, 0.9, 0.4, 0.2) } },
        'peer-twins': { scheme: 'peer', members: { A: history(40, 0.4, 0.9, 0.4, 0.2, 0.3, [0.4, 0.4, 0.2, 0.2]), T: history(40, 0.4, 0.9, 0.4, 0.8, 0.3, [0.4, 0.4, 0.2, 0.8]) } },
        'peer-siblings': { scheme: 'peer', members: { A: history(40, 0.4, 0.6, 0.4, 0.5), S: history(40, 0.4, 0.6, 0.4, 0.5) } },
      },
      { A: 0.4, T: 0.4, S: 0.4 },
      { AT: 0.8, AS: 0.1, TS: 0.1 },
    );
    const c = claimDiversity([r, { ...r, seed: 2 }]);
    // A's own: +0.1 next to S, -0.2 next to T.
    expect(c.stats.mean).toBeCloseTo(0.3, 6);
    expect(c.stats.wins).toBe(2);
    expect(c.measure).toBe("A's gain next to S − next to T, pass@1");
    const text = c.lines.join('\n');
    expect(text).toMatch(/peer-twins kappa 0\.80, A −0\.20, T \+0\.40/);
    expect(text).toMatch(/pairs fixed by the preset, most similar partner first: peer-twins \(A with T\), peer-siblings \(A with S\)/);
    expect(text).toMatch(/peer-twins: .* both members collapsed in 0\/2 seeds/); // T rose
    expect(text).toMatch(/peer-siblings: .* both members collapsed in 0\/2 seeds/);
    expect(text).toMatch(/overlap, peer-twins − peer-siblings: kappa \+0\.70/);
  });

  it('summarises over seeds as mean ± sd and draws a figure', () => {
    expect(meanSd([1, 2, 3])).toEqual({ mean: 2, sd: 1, n: 3 });
    const file = { version: 2 as const, spec: { task: { id: 'digitsum', difficulty: 3 }, grpo: { promptsPerStep: 16, groupSize: 8, learningRate: 4e-4 } } as never, runs: [collapseRun(1, 0.4), collapseRun(2, 0.3)] };
    const table = markdownTable(file);
    expect(table).toMatch(/\| self \| B \(mlp\) \| 0\.30 ± 0\.00 \| 0\.30 ± 0\.00 \| 0\.10 ± 0\.00 \|.* 2\/2 \(step ≈ 40\) \|$/m);
    // The oracle has no pseudo-label: its column is empty, its own vote's accuracy is next to it.
    expect(table).toMatch(/\| oracle \| A \(mlp\) \|( [^|]+ \|){6} - \| 0\.50 ± 0\.00 \|/);
    const perSeed = perSeedTable(file).split('\n');
    expect(perSeed[0]).toBe('| seed | base A / B | oracle start → end | self start → end | peer start → end | collapsed self members | pooled maj@G: peer / self / untrained pair |');
    // seed 1: self B falls 0.3 -> 0.1 with reward 0.4 -> 0.95 (collapsed); peer arm (0.6 + 0.4) / 2 at the end.
    expect(perSeed[2]).toBe('| 1 | 0.60 / 0.30 | 0.45 → 0.65 | 0.45 → 0.35 | 0.45 → 0.50 | B (0.30 → 0.10) | 0.50 / 0.50 / - |');
    const svg = figureSvg(file, ['reward']);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('self (self)');
    expect(svg).not.toMatch(/NaN/);
    expect(svg).not.toContain('pair pooled maj@G');
    const withEnsemble = figureSvg(file, [], undefined, false, true);
    expect(withEnsemble).toContain('pair pooled maj@G');
    expect(withEnsemble).not.toMatch(/NaN/);
  });
});
