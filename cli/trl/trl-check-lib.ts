/**
 * The pieces of `npm run trl-check` that need no Python: finding or making the venv, the skip
 * line, reading a member's log_history.json (written by the exported train_cohort.py) into the
 * per-arm figures, and the verdicts over seeds by the lab's rule (docs/RESULTS.md, "How the
 * verdicts are read": the per-seed paired difference and its 95% interval).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { REQUIREMENTS } from '../../src/export/trl/mapping';
import { describePaired, paired, type Paired } from '../science/science-paired';

/** The packages the check imports, with the pinned version of each (requirements.txt). */
export function pinnedVersions(): Record<string, string> {
  return Object.fromEntries(REQUIREMENTS.map((r) => r.split('==') as [string, string]));
}

const VERSIONS_SCRIPT =
  'import json, importlib.metadata as m\n' +
  'out = {}\n' +
  'for name in ("trl", "transformers", "accelerate", "datasets", "torch", "tokenizers"):\n' +
  '    try:\n' +
  '        __import__(name)\n' +
  '        out[name] = m.version(name)\n' +
  '    except Exception as e:\n' +
  '        out[name] = None\n' +
  'print(json.dumps(out))';

/** The installed versions of the check's packages in `python` (null: not importable), or null when python does not run. */
export function installedVersions(python: string): Record<string, string | null> | null {
  const r = spawnSync(python, ['-c', VERSIONS_SCRIPT], { encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) return null;
  try {
    return JSON.parse(r.stdout.trim().split('\n').pop() ?? '');
  } catch {
    return null;
  }
}

/** A version without its local label: torch's CPU wheel 2.9.0+cpu is the pinned 2.9.0 (PEP 440 matches it so too). */
export const publicVersion = (v: string | null | undefined): string | null => (v == null ? null : v.split('+')[0]);

/** What differs from the pins ("trl 0.25.0, want 0.26.2"), empty when every pin is installed. */
export function versionProblems(installed: Record<string, string | null>): string[] {
  return Object.entries(pinnedVersions())
    .filter(([name, want]) => publicVersion(installed[name]) !== want)
    .map(([name, want]) => `${name} ${installed[name] ?? 'missing'}, want ${want}`);
}

/** A python3 of 3.10 or newer on PATH, or null. */
export function systemPython(candidates = ['python3']): string | null {
  for (const python of candidates) {
    const r = spawnSync(python, ['-c', 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'], { encoding: 'utf8' });
    if (r.status === 0) return python;
  }
  return null;
}

export const venvPython = (venv: string) => join(venv, 'bin', 'python');

export type VenvState = { python: string; installed: false } | { python: string; installed: true; seconds: number; bytes: number } | { skipped: string };

/**
 * The pip commands that install the pins: with a torch index (PyTorch's CPU wheels,
 * https://download.pytorch.org/whl/cpu), torch first from that index alone, then the rest from
 * PyPI, which finds torch already there; without one, everything from PyPI in one command (on
 * Linux its torch wheel is the CUDA build, which brings the nvidia packages and runs on CPU too).
 */
export function pipCommands(torchIndex?: string): string[][] {
  const base = ['-m', 'pip', 'install', '--disable-pip-version-check'];
  if (!torchIndex) return [[...base, ...REQUIREMENTS]];
  const torch = REQUIREMENTS.filter((r) => r.startsWith('torch=='));
  return [
    [...base, '--index-url', torchIndex, ...torch],
    [...base, ...REQUIREMENTS],
  ];
}

/**
 * The venv with the pinned packages: reused when it has them, else (unless `install` is false)
 * made and installed with pip, timed and measured. A missing python3, a refused install or
 * `--no-install` without the packages: `skipped` says which, in one line.
 */
export function ensureVenv(venv: string, install: boolean, log: (line: string) => void = () => {}, torchIndex?: string): VenvState {
  const existing = venvPython(venv);
  if (existsSync(existing)) {
    const v = installedVersions(existing);
    if (v && versionProblems(v).length === 0) return { python: existing, installed: false };
    if (!install) return { skipped: `skipped: the venv ${venv} lacks the pinned packages (${v ? versionProblems(v).join('; ') : 'its python does not run'}) and --no-install was given` };
  } else if (!install) {
    return { skipped: `skipped: no venv at ${venv} with the pinned packages (${REQUIREMENTS.join(' ')}) and --no-install was given` };
  }
  const python = systemPython();
  if (!python) return { skipped: 'skipped: python3 (3.10 or newer) not found, so the TRL packages cannot be installed' };
  const t0 = Date.now();
  if (!existsSync(existing)) {
    const mk = spawnSync(python, ['-m', 'venv', venv], { encoding: 'utf8' });
    if (mk.status !== 0) return { skipped: `skipped: python3 -m venv ${venv} failed: ${lastLine(mk.stderr || mk.stdout)}` };
  }
  log(
    torchIndex
      ? `installing ${REQUIREMENTS.join(' ')} into ${venv} (torch from ${torchIndex})`
      : `installing ${REQUIREMENTS.join(' ')} into ${venv} (several GB: PyPI's torch for Linux is the CUDA build; --torch-index https://download.pytorch.org/whl/cpu takes the CPU wheel)`,
  );
  for (const cmd of pipCommands(torchIndex)) {
    const pip = spawnSync(existing, cmd, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 60 * 60_000 });
    if (pip.status !== 0) return { skipped: `skipped: pip could not install the pinned packages: ${lastLine(pip.stderr || pip.stdout)}` };
  }
  const seconds = (Date.now() - t0) / 1000;
  const du = spawnSync('du', ['-sb', venv], { encoding: 'utf8' });
  const bytes = Number(du.stdout.split(/\s/)[0]) || 0;
  return { python: existing, installed: true, seconds, bytes };
}

function lastLine(text: string): string {
  return (text.trim().split('\n').filter((l) => l.trim()).pop() ?? '(no output)').slice(0, 300);
}

// ---------------------------------------------------------------------------------------------
// Reading a run back
// ---------------------------------------------------------------------------------------------

/** One entry of transformers' Trainer.state.log_history: a step's log, an evaluation, or the run's summary. */
export type LogEntry = Record<string, number | string | null | undefined>;

export interface MemberFigures {
  member: string;
  /** Held-out pass@1 at the evaluation of step 0 and at the last evaluation. */
  start: number;
  end: number;
  /** Steps of the last evaluation. */
  endStep: number;
  /** Mean training reward over the first and the last `window` RL steps. */
  rewardFirst: number;
  rewardLast: number;
  /** Pseudo-label accuracy on the training prompts, the same windows. */
  labelFirst: number;
  labelLast: number;
  steps: number;
  /** TRL's train_runtime / steps (seconds per RL step, evaluations included). */
  secondsPerStep: number;
}

const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** A member's figures from its log_history.json; throws with one line when the log lacks them. */
export function memberFigures(member: string, log: readonly LogEntry[], window = 10): MemberFigures {
  if (!Array.isArray(log)) throw new Error(`${member}: log_history.json is not a list`);
  const evals = log.filter((e) => num(e.eval_reward) !== null).map((e) => ({ step: num(e.step) ?? 0, pass: num(e.eval_reward)! }));
  const train = log.filter((e) => num(e.reward) !== null && num(e.eval_reward) === null).map((e) => ({ reward: num(e.reward)!, label: num(e['cohort/pseudo_label_accuracy']) }));
  const summary = log.find((e) => num(e.train_runtime) !== null);
  if (evals.length < 2 || evals[0].step !== 0) throw new Error(`${member}: the log has no evaluation at step 0 and after it (eval_on_start and eval_steps)`);
  if (train.length === 0) throw new Error(`${member}: the log has no training step`);
  const first = train.slice(0, window);
  const last = train.slice(-window);
  const labels = (xs: typeof train) => mean(xs.map((x) => x.label).filter((x): x is number => x !== null));
  const end = evals[evals.length - 1];
  return {
    member,
    start: evals[0].pass,
    end: end.pass,
    endStep: end.step,
    rewardFirst: mean(first.map((x) => x.reward)),
    rewardLast: mean(last.map((x) => x.reward)),
    labelFirst: labels(first),
    labelLast: labels(last),
    steps: train.length,
    secondsPerStep: summary ? num(summary.train_runtime)! / train.length : NaN,
  };
}

export interface ArmFigures {
  arm: string;
  seed: number;
  members: MemberFigures[];
  /** Wall time of the arm's launch.sh (members in parallel), seconds. */
  wallSeconds: number;
}

export const armMean = (a: ArmFigures, key: keyof Omit<MemberFigures, 'member'>): number => mean(a.members.map((m) => m[key] as number));

const f2 = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : '-');

/** The per-arm table the check prints (means over the arm's members). */
export function armTable(arms: readonly ArmFigures[]): string {
  const rows = [
    '| seed | arm | held-out pass@1 start → end | reward (first 10 → last 10 steps) | pseudo-label accuracy (first 10 → last 10) | steps | s/step (TRL) | wall s |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const a of arms) {
    rows.push(
      `| ${a.seed} | ${a.arm} | ${f2(armMean(a, 'start'))} → ${f2(armMean(a, 'end'))} | ${f2(armMean(a, 'rewardFirst'))} → ${f2(armMean(a, 'rewardLast'))} | ` +
        `${f2(armMean(a, 'labelFirst'))} → ${f2(armMean(a, 'labelLast'))} | ${armMean(a, 'steps')} | ${armMean(a, 'secondsPerStep').toFixed(3)} | ${a.wallSeconds.toFixed(0)} |`,
    );
  }
  return rows.join('\n');
}

export interface Claim {
  id: string;
  text: string;
  /** The per-seed difference, from the seed's arms by id. */
  d: (arms: Map<string, ArmFigures>) => number;
}

const at = (arms: Map<string, ArmFigures>, id: string, key: 'start' | 'end') => {
  const a = arms.get(id);
  return a ? armMean(a, key) : NaN;
};

/** The lab's claims on the pair presets that the three arms can read (docs/RESULTS.md, "Verdicts"). */
export const CLAIMS: Claim[] = [
  { id: '(a)', text: "self-reward collapses: the self arm's held-out pass@1 falls (self start − self end)", d: (m) => at(m, 'self', 'start') - at(m, 'self', 'end') },
  { id: '(b)', text: 'peer reward beats self-reward (peer end − self end)', d: (m) => at(m, 'peer', 'end') - at(m, 'self', 'end') },
  { id: '(learns)', text: 'peer reward teaches: the peer arm ends above its start (peer end − peer start)', d: (m) => at(m, 'peer', 'end') - at(m, 'peer', 'start') },
  { id: '(oracle)', text: 'the true labels stay ahead (oracle end − peer end)', d: (m) => at(m, 'oracle', 'end') - at(m, 'peer', 'end') },
  { id: '(truth)', text: 'GRPO learns from true labels (oracle end − oracle start)', d: (m) => at(m, 'oracle', 'end') - at(m, 'oracle', 'start') },
];

/** One verdict line per claim over the seeds run (needs two seeds or more for an interval). */
export function verdictLines(arms: readonly ArmFigures[]): { claim: Claim; stats: Paired; line: string }[] {
  const seeds = [...new Set(arms.map((a) => a.seed))].sort((x, y) => x - y);
  const bySeed = new Map(seeds.map((s) => [s, new Map(arms.filter((a) => a.seed === s).map((a) => [a.arm, a]))]));
  return CLAIMS.map((claim) => {
    const stats = paired(seeds.map((s) => claim.d(bySeed.get(s)!)));
    const word = stats.n < 2 ? 'ONE SEED' : stats.verdict.toUpperCase();
    return { claim, stats, line: `${claim.id} ${word}: ${claim.text}: ${describePaired(stats)} (seeds ${seeds.join(',')})` };
  });
}

/** One member's warm start as tiny_lab.py reports it. */
export interface WarmStart {
  seed: number;
  member: string;
  parameters: number;
  steps: number;
  /** Probability of reproducing the validation references when it stopped. */
  validation: number;
  target: number;
  seconds: number;
}

/** What `npm run trl-check -- --out FILE.json` writes (bench/results/trl-check*.json). */
export interface TrlCheckResult {
  preset: string;
  /** tiny: a tiny GPT-2 per member (check/tiny_lab.py); lab: the lab's own members and warm starts. Absent: tiny. */
  models?: 'tiny' | 'lab';
  seeds: number[];
  steps: number;
  date: string;
  machine: { cpus: number; cpu: string; os: string; python: string; node: string };
  versions: Record<string, string | null> | null;
  /** The venv's install when this run made it (null: an existing venv was used). */
  install: { seconds: number; bytes: number; torchIndex: string | null } | null;
  /** From the venv being ready to the figures (export, tiny models, warm starts, every arm). */
  wallSeconds: number;
  /** The whole process, install included (from node's start). */
  totalSeconds: number;
  /** Absent in a file written before the warm starts were recorded. */
  warmStarts?: WarmStart[];
  figures: ArmFigures[];
}
