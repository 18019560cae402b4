/**
 * The workshop sequence (sequence.ts): every step names a real preset and arms it has; every
 * number a talking point quotes is a number docs/RESULTS.md prints; each step's measured value
 * reads as the answer the 8 seeds gave; and a run's summary is read as the UI shows it.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { MemberStepMetrics, RunSummary } from '../../core/experiment/events';
import { getPreset } from '../../core/experiment/presets';
import { memberMetrics } from '../store/fixtures';
import { LEVEL_BAND, WORKSHOP, type Quantity, directionOf, readRun, seedCount, seedsMeasured, signed } from './sequence';

const RESULTS = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../../docs/RESULTS.md'), 'utf8');

function armsOf(q: Quantity): string[] {
  return q.kind === 'change' ? [q.arm] : [q.arm, q.than];
}

describe('the workshop sequence', () => {
  it('walks through the collapse, a peer that teaches, a different partner and the compute-matched control', () => {
    const ids = WORKSHOP.map((s) => s.presetId);
    expect(ids).toEqual(expect.arrayContaining(['collapse', 'peers-teach', 'families', 'ensemble-control', 'overlap']));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('names presets that exist, and arms and members those presets have', () => {
    for (const step of WORKSHOP) {
      const preset = getPreset(step.presetId);
      expect(preset, step.presetId).toBeDefined();
      if (!preset) continue;
      for (const armId of armsOf(step.quantity)) {
        const arm = preset.spec.arms.find((a) => a.id === armId);
        expect(arm, `${step.presetId}: arm ${armId}`).toBeDefined();
        const member = step.quantity.kind === 'pooledDifference' ? undefined : step.quantity.member;
        if (member) expect(arm?.members, `${step.presetId}: ${armId} has ${member}`).toContain(member);
      }
      if (step.quantity.kind === 'pooledDifference') {
        // A pooled vote needs a pair in each arm.
        for (const armId of armsOf(step.quantity)) expect(preset.spec.arms.find((a) => a.id === armId)?.members.length).toBe(2);
      }
    }
  });

  it('has three different answers per question, and text for every field', () => {
    for (const step of WORKSHOP) {
      expect(new Set(Object.values(step.answers)).size).toBe(3);
      for (const text of [step.title, step.setup, step.question, step.talkingPoint]) expect(text.trim().length).toBeGreaterThan(10);
    }
  });

  it('quotes in its talking points and tables only numbers that docs/RESULTS.md prints, signs included', () => {
    const numbersOf = (text: string | null) => text?.match(/[+−]?\d\.\d\d/g) ?? [];
    // A change is end − start on the page; RESULTS prints claim (a) as start − end (a row says so).
    const negate = (n: string) => (n.startsWith('+') ? `−${n.slice(1)}` : n.startsWith('−') ? `+${n.slice(1)}` : n);
    for (const step of WORKSHOP) {
      for (const n of numbersOf(step.talkingPoint)) expect(RESULTS.includes(n), `${step.presetId}: ${n} is not in docs/RESULTS.md`).toBe(true);
      const cells = step.numbers.flatMap((r) => [...numbersOf(r.tuning), ...numbersOf(r.fresh)].map((n) => (r.negatedInResults ? negate(n) : n)));
      expect(cells.length, step.presetId).toBeGreaterThan(2);
      for (const n of cells) expect(RESULTS.includes(n), `${step.presetId}: ${n} is not in docs/RESULTS.md`).toBe(true);
    }
  });

  it('keeps each talking point short enough for a projector (about 120 words of numbers were too many)', () => {
    for (const step of WORKSHOP) expect(step.talkingPoint.split(/\s+/).length, step.presetId).toBeLessThanOrEqual(40);
  });

  it("prints a fall as a negative change, as the card's own reading does", () => {
    for (const step of WORKSHOP) {
      if (step.quantity.kind !== 'change') continue;
      const row = step.numbers.find((r) => r.what.startsWith(`${step.quantity.kind === 'change' ? step.quantity.arm : ''}'s change (end − start)`));
      if (!row) continue;
      const shown = (row.tuning ?? row.fresh ?? '').match(/^[+−]\d\.\d\d/)?.[0];
      expect(shown, step.presetId).toBeDefined();
      expect(Math.sign(step.measured), `${step.presetId}: ${shown} against the card's ${signed(step.measured)}`).toBe(shown!.startsWith('−') ? -1 : 1);
    }
  });

  it("overlap: says 'shown' only where the plan's Holm verdict in docs/RESULTS.md is SHOWN, on the confirmation seeds", () => {
    const step = WORKSHOP.find((s) => s.presetId === 'overlap');
    expect(step?.seeds.fresh).toBe('201-212');
    // The lines science-overlap.ts prints for the confirmation block: "+0.15 [95% CI +0.05, +0.25] ... Holm p 0.016: SHOWN".
    const lines = RESULTS.split('\n').filter((l) => /Holm p [\d.]+: (NOT )?SHOWN/.test(l));
    const verdictOf = (mean: string) => lines.find((l) => l.includes(`${mean} [95% CI`))?.match(/: ((NOT )?SHOWN)$/)?.[1];
    for (const row of step?.numbers ?? []) {
      for (const cell of [row.tuning, row.fresh]) {
        if (!cell || !/shown/.test(cell)) continue;
        const mean = cell.match(/^[+−]\d\.\d\d/)?.[0];
        expect(mean, cell).toBeDefined();
        expect(verdictOf(mean!), `${row.what}: ${cell}`).toBe(/not shown/.test(cell) ? 'NOT SHOWN' : 'SHOWN');
      }
    }
    expect(step?.measured).toBe(0.15);
  });

  it("takes each step's measured value from its fresh seeds, the headline's block, as its table prints it", () => {
    const fromFresh = (step: { measured: number; numbers: readonly { fresh: string | null }[] }) =>
      step.numbers.some((r) => r.fresh?.startsWith(signed(step.measured)));
    for (const step of WORKSHOP) expect(fromFresh(step), `${step.presetId}: ${signed(step.measured)} is no fresh-seed value of its table`).toBe(true);
    // A tuning-seed value beside a fresh-seed headline fails (collapse's −0.17 beside −0.15).
    const collapse = WORKSHOP.find((s) => s.presetId === 'collapse')!;
    expect(fromFresh({ ...collapse, measured: -0.17 })).toBe(false);
  });

  it("reads each step's 8-seed value as the answer its talking point gives", () => {
    const expected: Record<string, string> = { collapse: 'down', 'peers-learn': 'up', 'ensemble-control': 'up', 'peers-teach': 'up', families: 'level', length: 'up', overlap: 'up' };
    for (const step of WORKSHOP) expect(directionOf(step.measured), step.presetId).toBe(expected[step.presetId]);
  });
});

describe('the seeds behind a step', () => {
  it('counts a block of seeds, and names the fresh block where there is one', () => {
    expect([seedCount('1-8'), seedCount('1-3, 5-9'), seedCount('201-212'), seedCount('7')]).toEqual([8, 8, 12, 1]);
    expect(WORKSHOP.map((s) => `${s.presetId}: ${seedsMeasured(s)}`)).toContain('overlap: 12 seeds');
    expect(WORKSHOP.map((s) => `${s.presetId}: ${seedsMeasured(s)}`)).toContain('collapse: 8 seeds');
  });
});

describe('directionOf and signed', () => {
  it('counts a change under the band either way as level', () => {
    expect(directionOf(LEVEL_BAND)).toBe('up');
    expect(directionOf(LEVEL_BAND - 0.001)).toBe('level');
    expect(directionOf(0)).toBe('level');
    expect(directionOf(-LEVEL_BAND + 0.001)).toBe('level');
    expect(directionOf(-LEVEL_BAND)).toBe('down');
  });

  it('prints numbers as the docs do', () => {
    expect(signed(0.051)).toBe('+0.05');
    expect(signed(-0.17)).toBe('−0.17');
    expect(signed(0.001)).toBe('0.00');
    expect(signed(-0.004)).toBe('0.00');
  });
});

/** A run summary by hand: members' base pass@1, and per arm the histories (evalPassAt1 per step, or undefined). */
function summary(base: Record<string, number>, arms: Record<string, { members: Record<string, (number | undefined)[]>; ensemble?: number[] }>): RunSummary {
  return {
    seed: 1,
    backend: 'wasm',
    medianStepMs: 1,
    base: Object.entries(base).map(([memberId, passAt1]) => ({ memberId, passAt1, majAtG: passAt1 })),
    baseKappa: [],
    arms: Object.entries(arms).map(([id, arm]) => ({
      id,
      scheme: 'peer',
      members: Object.entries(arm.members).map(([mid, evals]) => ({
        id: mid,
        family: 'mlp',
        params: 1,
        collapseStep: null,
        history: evals.map((e, i) => ({ step: i + 1, ...memberMetrics(e === undefined ? {} : ({ evalPassAt1: e } as Partial<MemberStepMetrics>)) })),
      })),
      pairs: [],
      ensemble: (arm.ensemble ?? []).map((majAtG, i) => ({ step: i + 1, majAtG })),
    })),
  };
}

describe('reading a run', () => {
  const run = summary(
    { A: 0.46, B: 0.44 },
    {
      self: { members: { A: [undefined, 0.4, undefined, 0.3], B: [undefined, 0.42, undefined, 0.34] }, ensemble: [0.5, 0.35] },
      peer: { members: { A: [undefined, 0.5, undefined, 0.49], B: [undefined, 0.47, undefined, 0.45] }, ensemble: [0.7, 0.72] },
    },
  );

  it("an arm's change: last evaluation minus the base, mean over its members", () => {
    const r = readRun({ kind: 'change', arm: 'self' }, run);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toBeCloseTo(0.32 - 0.45, 10);
    expect(r.direction).toBe('down');
    expect(r.detail).toBe("the self arm's held-out pass@1 0.45 → 0.32 (−0.13)");
    const peer = readRun({ kind: 'change', arm: 'peer' }, run);
    expect(peer.ok && peer.direction).toBe('level');
  });

  it("one member's gain in one arm against another", () => {
    const r = readRun({ kind: 'gainDifference', member: 'A', arm: 'peer', than: 'self' }, run);
    expect(r.ok && r.value).toBeCloseTo(0.49 - 0.3, 10);
    expect(r.ok && r.detail).toBe('A gained +0.03 in peer and −0.16 in self (difference +0.19)');
  });

  it('the pooled pairs at the last evaluation', () => {
    const r = readRun({ kind: 'pooledDifference', arm: 'peer', than: 'self' }, run);
    expect(r.ok && r.value).toBeCloseTo(0.72 - 0.35, 10);
    expect(r.ok && r.direction).toBe('up');
  });

  it('says why a run does not answer yet, or cannot', () => {
    expect(readRun({ kind: 'change', arm: 'self' }, null)).toEqual({ ok: false, why: 'no run yet' });
    expect(readRun({ kind: 'change', arm: 'oracle' }, run)).toEqual({ ok: false, why: 'this run has no oracle arm' });
    expect(readRun({ kind: 'gainDifference', member: 'C', arm: 'peer', than: 'self' }, run)).toEqual({ ok: false, why: 'the peer arm has no member C' });
    const early = summary({ A: 0.46, B: 0.44 }, { self: { members: { A: [undefined], B: [undefined] } } });
    expect(readRun({ kind: 'change', arm: 'self' }, early)).toEqual({ ok: false, why: 'no evaluation after training has started yet' });
    expect(readRun({ kind: 'pooledDifference', arm: 'self', than: 'self' }, early)).toEqual({ ok: false, why: 'no pooled evaluation yet' });
    const noBase = summary({}, { self: { members: { A: [0.4] } } });
    expect(readRun({ kind: 'change', arm: 'self' }, noBase)).toEqual({ ok: false, why: 'the run has not evaluated its members yet' });
  });
});
