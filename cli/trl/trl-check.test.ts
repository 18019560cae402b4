/**
 * npm run trl-check's reading of a run (no Python needed): a member's log_history.json into its
 * figures, the per-arm table, the verdicts over seeds, the pins it checks and its one-line skip.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { armTable, ensureVenv, memberFigures, pinnedVersions, pipCommands, publicVersion, verdictLines, versionProblems, type ArmFigures, type LogEntry } from './trl-check-lib';

/** A log as transformers' Trainer writes it: step logs, evaluations (eval_on_start at step 0), the run's summary. */
function log(passes: number[], rewards: number[], labels: number[]): LogEntry[] {
  const out: LogEntry[] = [{ step: 0, eval_reward: passes[0], 'eval_cohort/maj_at_g': 0.5 }];
  rewards.forEach((r, i) => {
    out.push({ step: i + 1, reward: r, 'cohort/pseudo_label_accuracy': labels[i], loss: 0 });
    if ((i + 1) % 10 === 0) out.push({ step: i + 1, eval_reward: passes[(i + 1) / 10] });
  });
  out.push({ step: rewards.length, train_runtime: rewards.length * 0.2, train_loss: 0 });
  return out;
}

const arm = (id: string, seed: number, start: number, end: number): ArmFigures => ({
  arm: id,
  seed,
  wallSeconds: 30,
  members: ['A', 'B'].map((m) => memberFigures(m, log([start, (start + end) / 2, end], Array(20).fill(0.5), Array(20).fill(0.5)))),
});

describe('trl-check reads a run back', () => {
  it("takes pass@1 at step 0 and at the last evaluation, and the first and last ten steps' reward and label accuracy", () => {
    const rewards = Array.from({ length: 30 }, (_, i) => i / 30);
    const labels = Array.from({ length: 30 }, (_, i) => (i < 10 ? 0.6 : 0.3));
    const f = memberFigures('A', log([0.45, 0.4, 0.35, 0.3], rewards, labels));
    expect(f).toMatchObject({ member: 'A', start: 0.45, end: 0.3, endStep: 30, steps: 30 });
    expect(f.labelFirst).toBeCloseTo(0.6, 10);
    expect(f.labelLast).toBeCloseTo(0.3, 10);
    expect(f.rewardFirst).toBeCloseTo(4.5 / 30, 10);
    expect(f.rewardLast).toBeCloseTo(24.5 / 30, 10);
    expect(f.secondsPerStep).toBeCloseTo(0.2, 10);
  });

  it('says in one line what a log lacks', () => {
    expect(() => memberFigures('B', [{ step: 1, reward: 0.5 }])).toThrow(/^B: the log has no evaluation at step 0/);
    expect(() => memberFigures('B', [{ step: 0, eval_reward: 0.5 }, { step: 10, eval_reward: 0.5 }])).toThrow(/^B: the log has no training step/);
  });

  it("prints one row per arm and the lab's verdicts over seeds (a difference inside its noise is not shown)", () => {
    const figures = [101, 102, 103].flatMap((s, k) => [arm('oracle', s, 0.5, 0.7), arm('self', s, 0.5, 0.3 - k * 0.01), arm('peer', s, 0.5, 0.5 + [0.1, -0.1, 0.02][k])]);
    expect(armTable(figures).split('\n')).toHaveLength(2 + 9);
    expect(armTable(figures)).toMatch(/\| 101 \| self \| 0\.50 → 0\.30 \| 0\.50 → 0\.50 \| 0\.50 → 0\.50 \| 20 \| 0\.200 \| 30 \|/);
    const lines = verdictLines(figures).map((v) => v.line);
    expect(lines[0]).toMatch(/^\(a\) SHOWN: self-reward collapses.*: \+0\.21 \[95% CI .*\], 3 wins, 0 ties, 0 losses of 3 seeds \(seeds 101,102,103\)$/);
    expect(lines[2]).toMatch(/^\(learns\) NOT SHOWN: peer reward teaches/);
    expect(verdictLines(figures.filter((f) => f.seed === 101))[0].line).toMatch(/^\(a\) ONE SEED/);
  });
});

describe('trl-check finds its Python', () => {
  it('checks the pins of requirements.txt', () => {
    const pins = pinnedVersions();
    expect(Object.keys(pins).sort()).toEqual(['accelerate', 'datasets', 'torch', 'transformers', 'trl']);
    expect(versionProblems({ ...pins, tokenizers: '0.22.2' })).toEqual([]);
    expect(versionProblems({ ...pins, trl: '0.25.0', torch: null })).toEqual([`trl 0.25.0, want ${pins.trl}`, `torch missing, want ${pins.torch}`]);
  });

  it("takes torch's CPU wheel (2.9.0+cpu) for the pinned 2.9.0, and nothing else for it", () => {
    const pins = pinnedVersions();
    expect(publicVersion('2.9.0+cpu')).toBe('2.9.0');
    expect(versionProblems({ ...pins, torch: `${pins.torch}+cpu` })).toEqual([]);
    expect(versionProblems({ ...pins, torch: '2.9.1+cpu' })).toEqual([`torch 2.9.1+cpu, want ${pins.torch}`]);
  });

  it('installs torch from a given index first, alone, then the pins from PyPI', () => {
    expect(pipCommands()).toHaveLength(1);
    expect(pipCommands()[0]).not.toContain('--index-url');
    const [torch, rest] = pipCommands('https://download.pytorch.org/whl/cpu');
    expect(torch.slice(-3)).toEqual(['--index-url', 'https://download.pytorch.org/whl/cpu', `torch==${pinnedVersions().torch}`]);
    expect(rest).not.toContain('--index-url');
    expect(rest.filter((a) => a.includes('=='))).toHaveLength(Object.keys(pinnedVersions()).length);
  });

  it('refuses a torch index that is not a URL, in words, before anything runs', () => {
    const r = spawnSync('npx', ['tsx', 'cli/trl/trl-check.ts', '--torch-index', 'file:/etc', '--no-install', '--venv', '/nonexistent'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--torch-index must be an http\(s\) URL/);
  });

  it('skips in one line, saying why, when the packages are not there and it may not install them', () => {
    const venv = join(mkdtempSync(join(tmpdir(), 'trl-venv-')), 'none');
    const state = ensureVenv(venv, false);
    expect(state).toEqual({ skipped: expect.stringMatching(/^skipped: no venv at .* with the pinned packages \(trl==.*\) and --no-install was given$/) });
    const r = spawnSync('npx', ['tsx', 'cli/trl/trl-check.ts', '--no-install', '--venv', venv], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^trl-check skipped: no venv at /)]);
  });
});
