/**
 * The gallery's science (npm run science -- --tasks): each gallery task
 * (src/core/tasks/custom/gallery.ts) run with the default preset's arms, members and settings
 * as they are, only the task replaced; the per-task table of docs/RESULTS.md, "The gallery,
 * measured", is read from the saved results with the lab's paired verdicts (science-paired.ts).
 * Pure functions over specs and summaries; science-tasks.ts trains and writes.
 */
import { z } from '../../src/core/zod';
import type { MemberInfo, RunSummary } from '../../src/core/experiment/events';
import { getPreset } from '../../src/core/experiment/presets';
import { parseSpec, type ExperimentSpec } from '../../src/core/experiment/spec';
import { checkTaskDefinition } from '../../src/core/tasks/custom/index';
import type { GalleryTask } from '../../src/core/tasks/custom/gallery';
import { holmVerdicts, paired, type Paired, type Verdict } from './science-paired';
import { armMean, armMembers, fmtMs, meanSd, type MeanSd } from './science-stats';

/** The preset whose arms, members and settings the gallery is measured with: the default. */
export const GALLERY_PRESET = 'peers-learn';

/**
 * The default preset's spec with `task` in place of its task. A custom task's member that misses
 * its warm-start target goes on from the best reached (warmStart.onMiss 'continue'), as the page
 * offers: the table then says where RL started (base accuracy) instead of losing the seed.
 */
export function gallerySpec(task: GalleryTask, seed: number, steps?: number): ExperimentSpec {
  const base = getPreset(GALLERY_PRESET)!.spec;
  const checked = checkTaskDefinition(task.definition, base.data);
  const errors = checked.findings.filter((f) => f.severity === 'error');
  if (!checked.task || errors.length) throw new Error(`gallery task ${task.id} cannot run with ${GALLERY_PRESET}'s sizes: ${errors.map((f) => f.message).join('; ')}`);
  const parsed = parseSpec({
    ...base,
    seed,
    steps: steps ?? base.steps,
    task: { id: 'custom', difficulty: 1, scratchpad: task.scratchpad, definition: task.definition },
    warmStart: { ...base.warmStart, onMiss: 'continue' },
  });
  if (!parsed.ok) throw new Error(`gallery task ${task.id}: the spec is not valid: ${parsed.errors.join('; ')}`);
  return parsed.spec;
}

// ---- what one seed leaves behind, and the table -----------------------------------------------

/** One seed of one gallery task, as the table reads it (arm values: means over the arm's members). */
export interface TaskSeedRecord {
  seed: number;
  /** Per member, before RL: held-out pass@1 and maj@G, and whether its warm start reached the target. */
  base: { member: string; passAt1: number; majAtG: number; warmStartSteps: number | null; reached: boolean | null }[];
  /** Per arm: held-out pass@1 and maj@G at the start and the end, reward (head and tail means), self members collapsed. */
  arms: Record<string, { passStart: number; passEnd: number; majStart: number; majEnd: number; rewardStart: number; reward: number; collapsed: number }>;
}

export interface TaskResults {
  id: string;
  title: string;
  /** taskContentHash of the definition the seeds ran. */
  hash: string;
  scratchpad: 'always' | 'never' | 'mixed';
  records: TaskSeedRecord[];
}

export const TASKS_FORMAT = 'cohort-lab/science-tasks';
export const TASKS_VERSION = 1;

export interface TasksFile {
  format: typeof TASKS_FORMAT;
  version: typeof TASKS_VERSION;
  preset: string;
  steps: number;
  seeds: number[];
  /** The command that made the file. */
  command: string;
  tasks: TaskResults[];
}

/** The record of one run: base per member, arms from science-stats' per-member summaries. */
export function seedRecord(run: RunSummary & { members?: MemberInfo[] }): TaskSeedRecord {
  const arms: TaskSeedRecord['arms'] = {};
  for (const a of run.arms) {
    arms[a.id] = {
      passStart: armMean(run, a.id, 'passStart'),
      passEnd: armMean(run, a.id, 'passEnd'),
      majStart: armMean(run, a.id, 'majStart'),
      majEnd: armMean(run, a.id, 'majEnd'),
      rewardStart: armMean(run, a.id, 'rewardStart'),
      reward: armMean(run, a.id, 'reward'),
      collapsed: armMembers(run, a.id).filter((s) => s.collapsed).length,
    };
  }
  return {
    seed: run.seed,
    base: run.base.map((b) => {
      const info = run.members?.find((m) => m.id === b.memberId);
      return { member: b.memberId, passAt1: b.passAt1, majAtG: b.majAtG, warmStartSteps: b.warmStartSteps ?? null, reached: info?.warmStartReached ?? null };
    }),
    arms,
  };
}

const finite = z.number().refine(Number.isFinite, 'a finite number');
const ArmRecordSchema = z.strictObject({ passStart: finite, passEnd: finite, majStart: finite, majEnd: finite, rewardStart: finite, reward: finite, collapsed: z.number().int().min(0) });
const TasksFileSchema = z.strictObject({
  format: z.literal(TASKS_FORMAT),
  version: z.literal(TASKS_VERSION),
  preset: z.string(),
  steps: z.number().int().min(1),
  seeds: z.array(z.number().int()),
  command: z.string(),
  tasks: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      hash: z.string(),
      scratchpad: z.enum(['always', 'never', 'mixed']),
      records: z.array(
        z.strictObject({
          seed: z.number().int(),
          base: z.array(z.strictObject({ member: z.string(), passAt1: finite, majAtG: finite, warmStartSteps: z.number().int().nullable(), reached: z.boolean().nullable() })),
          arms: z.record(z.string(), ArmRecordSchema),
        }),
      ),
    }),
  ),
});

/** A results file's text as a TasksFile, or the reason it is not one. */
export function parseTasksFile(text: string): { ok: true; file: TasksFile } | { ok: false; error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, error: `not JSON: ${(e as Error).message}` };
  }
  const r = TasksFileSchema.safeParse(raw);
  if (!r.success) return { ok: false, error: r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
  return { ok: true, file: r.data as TasksFile };
}

/** The three differences the table reads per seed, each with its verdict over seeds and the Holm verdicts of the three together. */
export interface TaskRow {
  id: string;
  seeds: number;
  basePass: MeanSd;
  baseMaj: MeanSd;
  /** Members whose warm start reached the preset's target, of all members over all seeds. */
  reached: [number, number];
  selfChange: Paired;
  selfReward: Paired;
  peerGain: Paired;
  oracleLead: Paired;
  holm: Verdict[];
  /** Seeds in which at least one self-arm member collapsed (metrics/dynamics.ts). */
  collapsedSeeds: number;
}

const arm = (r: TaskSeedRecord, id: string) => {
  const a = r.arms[id];
  if (!a) throw new Error(`seed ${r.seed} has no arm "${id}"`);
  return a;
};
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

export function taskRow(t: TaskResults): TaskRow {
  const rs = t.records;
  const selfChange = paired(rs.map((r) => arm(r, 'self').passEnd - arm(r, 'self').passStart));
  const peerGain = paired(rs.map((r) => arm(r, 'peer').passEnd - arm(r, 'peer').passStart));
  const oracleLead = paired(rs.map((r) => arm(r, 'oracle').passEnd - arm(r, 'peer').passEnd));
  const all = rs.flatMap((r) => r.base);
  return {
    id: t.id,
    seeds: rs.length,
    basePass: meanSd(rs.map((r) => mean(r.base.map((b) => b.passAt1)))),
    baseMaj: meanSd(rs.map((r) => mean(r.base.map((b) => b.majAtG)))),
    reached: [all.filter((b) => b.reached === true).length, all.length],
    selfChange,
    selfReward: paired(rs.map((r) => arm(r, 'self').reward - arm(r, 'self').rewardStart)),
    peerGain,
    oracleLead,
    holm: holmVerdicts([selfChange, peerGain, oracleLead]).map((h) => h.verdict),
    collapsedSeeds: rs.filter((r) => arm(r, 'self').collapsed > 0).length,
  };
}

const signed = (x: number) => (Number.isFinite(x) ? `${Number(x.toFixed(2)) >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}` : '-');
const interval = (p: Paired) => `${signed(p.mean)} [${signed(p.lo)}, ${signed(p.hi)}]`;
const changeWords: Record<Verdict, string> = { shown: 'rises', contradicted: 'falls', 'not shown': 'not shown' };
const leadWords: Record<Verdict, string> = { shown: 'leads', contradicted: 'trails', 'not shown': 'not shown' };

/** The markdown table of docs/RESULTS.md, "The gallery, measured": one row per task. */
export function tasksTable(file: TasksFile): string[] {
  const head = [
    'task',
    'base pass@1',
    'base maj@G',
    'self arm, end − start',
    'self reward, end − start',
    'peer arm, end − start',
    'oracle end − peer end',
    'Holm (self, peer, oracle)',
    'self collapsed (seeds)',
  ];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const t of file.tasks) {
    const r = taskRow(t);
    lines.push(
      `| ${t.id} (${t.scratchpad === 'never' ? 'no scratchpad' : `scratchpad ${t.scratchpad}`}) | ${fmtMs(r.basePass)} | ${fmtMs(r.baseMaj)} | ` +
        `${interval(r.selfChange)} ${changeWords[r.selfChange.verdict]} | ${interval(r.selfReward)} | ` +
        `${interval(r.peerGain)} ${changeWords[r.peerGain.verdict]} | ${interval(r.oracleLead)} ${leadWords[r.oracleLead.verdict]} | ` +
        `${changeWords[r.holm[0]]}, ${changeWords[r.holm[1]]}, ${leadWords[r.holm[2]]} | ${r.collapsedSeeds}/${r.seeds} |`,
    );
  }
  return lines;
}
