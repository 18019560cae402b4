import { describe, expect, it } from 'vitest';
import { emptySummary, foldEvent } from '../../core/experiment/summary';
import { getPreset } from '../../core/experiment/presets';
import { armMetrics, stepEvent } from '../store/fixtures';
import { appendStep, emptySeries } from '../store/series';
import { collapseDefinition, collapsedText, fmtSigned, scoreRows, scoreboardLines, seedMeanRows, type ScoreRow } from './scoreboard';

const arms = [
  { id: 'self', scheme: 'self', members: ['A', 'B'] },
  { id: 'peer', scheme: 'peer', members: ['A', 'B'] },
];
const base = [
  { memberId: 'A', passAt1: 0.5, majAtG: 0.6 },
  { memberId: 'B', passAt1: 0.3, majAtG: 0.4 },
];

function runOf(points: { step: number; self: [number, number, number?, number?]; peer: [number, number, number?, number?] }[]) {
  const series = emptySeries();
  for (const p of points) {
    const m = (v: [number, number, number?, number?]) => ({ A: { reward: v[0], evalPassAt1: v[2] }, B: { reward: v[1], evalPassAt1: v[3] } });
    appendStep(series, stepEvent(p.step, [armMetrics('self', 'self', m(p.self)), armMetrics('peer', 'peer', m(p.peer))]));
  }
  return series;
}

describe('scoreRows', () => {
  it('says nothing before the run: no start, no now, collapse unknown', () => {
    const rows = scoreRows(arms, emptySeries(), [], null);
    expect(rows.map((r) => [r.armId, r.start, r.now, r.change, r.reward, r.collapsed])).toEqual([
      ['self', null, null, null, null, null],
      ['peer', null, null, null, null, null],
    ]);
  });

  it('averages the members: base pass@1, the latest held-out pass@1, the latest reward', () => {
    const series = runOf([
      { step: 1, self: [0.5, 0.7], peer: [0.4, 0.4] },
      { step: 2, self: [0.9, 0.8, 0.25, 0.15], peer: [0.5, 0.6, 0.6, 0.4] },
      { step: 3, self: [1, 0.9], peer: [0.6, 0.5] },
    ]);
    const [self, peer] = scoreRows(arms, series, base, null);
    expect(self.start).toBeCloseTo(0.4, 12);
    // Step 3 was not evaluated: "now" is the latest evaluation, step 2's.
    expect(self.now).toBeCloseTo(0.2, 12);
    expect(self.change).toBeCloseTo(-0.2, 12);
    expect(self.reward).toBeCloseTo(0.95, 12);
    expect(peer.now).toBeCloseTo(0.5, 12);
    expect(peer.change).toBeCloseTo(0.1, 12);
    expect(peer.reward).toBeCloseTo(0.55, 12);
  });

  it('has no "now" until every member has been evaluated', () => {
    const series = runOf([{ step: 1, self: [0.5, 0.5, 0.4], peer: [0.5, 0.5] }]);
    expect(scoreRows(arms, series, base, null)[0].now).toBeNull();
  });

  it('reads collapse from the run summary the core keeps', () => {
    const spec = { ...getPreset('quick')!.spec, collapseDelta: 0.1 };
    const summary = emptySummary(spec, 'wasm');
    foldEvent(summary, { type: 'base', members: [], base, baseKappa: [] }, spec);
    // Member A of self: pass@1 0.5 (base), 0.5, 0.5, 0.3, 0.3 while the reward climbs: smoothed over
    // 3 evaluations 0.5, 0.43, 0.37 (more than 0.1 below 0.5): collapsed at step 4.
    const selfA = [[0.5, 0.5], [0.5, 0.5], [1, 0.3], [1, 0.3]];
    const events = selfA.map(([reward, evalPassAt1], i) =>
      stepEvent(i + 1, [armMetrics('oracle', 'oracle', { A: {}, B: {} }), armMetrics('self', 'self', { A: { reward, evalPassAt1 }, B: { reward: 0.5 } }), armMetrics('peer', 'peer', { A: {}, B: {} })]),
    );
    const series = emptySeries();
    for (const ev of events) {
      foldEvent(summary, ev, spec);
      appendStep(series, ev);
    }
    const [self, peer] = scoreRows(arms, series, base, summary);
    expect(self.collapsed).toEqual([{ memberId: 'A', step: 4 }]);
    expect(collapsedText(self)).toBe('yes: A at step 4');
    expect(peer.collapsed).toEqual([]);
    expect(collapsedText(peer)).toBe('no');
    expect(collapsedText({ collapsed: null })).toBe('—');
  });
});

describe('formatting', () => {
  it('signs changes with two decimals and a true minus', () => {
    expect(fmtSigned(0.0512)).toBe('+0.05');
    expect(fmtSigned(-0.126)).toBe('−0.13');
    expect(fmtSigned(-0.001)).toBe('0.00');
    expect(fmtSigned(null)).toBe('—');
  });

  it('says what collapsed means with the run\'s delta, and prints lines for the report', () => {
    expect(collapseDefinition(0.1)).toContain('smoothed over 3 evaluations, fell more than 0.10 below its best');
    const lines = scoreboardLines([{ armId: 'self', scheme: 'self', memberIds: ['A', 'B'], start: 0.44, now: 0.31, change: -0.13, reward: 0.98, collapsed: [{ memberId: 'A', step: 40 }] }]);
    expect(lines).toEqual(['self (self; A, B) · pass@1 0.44 → 0.31 (−0.13) · reward 0.98 · collapsed: yes: A at step 40']);
  });
});

describe('scoreboard over several seeds', () => {
  const row = (armId: string, now: number, collapsed: boolean): ScoreRow => ({
    armId,
    scheme: armId,
    memberIds: ['A'],
    start: 0.4,
    now,
    change: now - 0.4,
    reward: 0.5,
    collapsed: collapsed ? [{ memberId: 'A', step: 30 }] : [],
  });
  it('averages each number over the seeds and counts the seeds in which the arm collapsed', () => {
    const m = seedMeanRows([
      [row('self', 0.2, true), row('peer', 0.5, false)],
      [row('self', 0.3, false), row('peer', 0.4, false)],
    ]);
    expect(m.map((r) => [r.armId, r.seeds, r.collapsedIn])).toEqual([['self', 2, 1], ['peer', 2, 0]]);
    expect(m[0].now).toBeCloseTo(0.25, 12);
    expect(m[0].change).toBeCloseTo(-0.15, 12);
    expect(m[1].now).toBeCloseTo(0.45, 12);
  });
  it("runs of different arms (a paired class room's levels): every arm, each over the runs that trained it", () => {
    const m = seedMeanRows([[row('peer-S', 0.5, false)], [row('peer-T', 0.3, true)], [row('peer-S', 0.7, false)]]);
    expect(m.map((r) => [r.armId, r.seeds, r.collapsedIn])).toEqual([['peer-S', 2, 0], ['peer-T', 1, 1]]);
    expect(m[0].now).toBeCloseTo(0.6, 12);
    expect(m[1].now).toBeCloseTo(0.3, 12);
  });
  it('a number a seed lacks makes the mean unknown, not a mean of fewer seeds', () => {
    const missing = { ...row('self', 0.2, false), now: null, change: null };
    expect(seedMeanRows([[row('self', 0.3, false)], [missing]])[0].now).toBeNull();
  });
});
