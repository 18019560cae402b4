/**
 * The TRL export: an experiment spec and one Hugging Face model id per member -> the files of a
 * small Python project that trains the experiment's arms with TRL's GRPOTrainer, one process per
 * (arm, member), members exchanging pseudo-labels through a shared directory (Co-RL's engine).
 *
 * Pure (no DOM, no Node APIs): `npm run export` (cli/trl/export.ts) and the lab's "Export for GPUs"
 * button (src/app/run/ExportTrlButton.tsx) call this one function with the same Python sources,
 * so both produce the same files (tested). The problems are the lab's own (the same split and the
 * same prompts per step from the spec's seed), generated here by the TypeScript task code.
 */
import { Rng } from '../../core/random';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { experimentSplit, stepPromptIndices } from '../../core/experiment/data';
import { resolveTask } from '../../core/tasks/index';
import type { Problem, TaskId } from '../../core/tasks/types';
import { modelCountProblem, modelIdProblem, sharedModelWarnings } from './modelIds';
import { EXPORTED_SCHEMES, TRL_VERSION, grpoConfig, samplingSeed, skipReason } from './mapping';
import { ACCELERATE_CONFIGS, accelerateConfig, launchScript } from './launch';
import { readme, requirementsTxt, vllmRequirementsTxt } from './readme';
import { PYTHON_FILES, checkSources, type PythonSources } from './sources';

export interface ExportFile {
  /** Relative path inside the project, '/'-separated. */
  path: string;
  text: string;
}

export interface TrlExportOptions {
  /** One Hugging Face model id per member, in the spec's member order. */
  models: readonly string[];
  /** The preset the spec came from, for the README and the zip's folder name (optional). */
  presetId?: string | null;
}

export interface SkippedArm {
  id: string;
  scheme: string;
  reason: string;
}

export interface TrlExport {
  files: ExportFile[];
  /** Things the user should know (skipped arms, settings without a TRL counterpart), one line each. */
  notes: string[];
  exportedArms: string[];
  skippedArms: SkippedArm[];
}

/** A user error in what is exported (model ids, arms): one line. */
export class ExportError extends Error {}

/** Checks the model ids against the members; throws ExportError with one line naming the problem. */
export function checkModels(spec: ExperimentSpec, models: readonly string[]): string[] {
  const count = modelCountProblem(spec.members.map((m) => m.id), models);
  if (count) throw new ExportError(count);
  return models.map((id, i) => {
    const problem = modelIdProblem(id);
    if (problem) throw new ExportError(`member ${spec.members[i].id}: ${problem}`);
    return id.trim();
  });
}

// ---------------------------------------------------------------------------------------------
// The task as a data set
// ---------------------------------------------------------------------------------------------

/** The chat instruction an instruct model gets for a lab problem; it asks for the lab's answer format. */
export function instructPrompt(taskId: TaskId | 'custom', problem: Problem, difficulty: number): string {
  const ask = (what: string) => `Finish your reply with the character > followed by ${what}, and nothing after it.`;
  const body = problem.prompt.slice(0, -1); // without the '='
  switch (taskId) {
    case 'digitsum': {
      const digits = body.split('+').join(' + ');
      return (
        `Add these ${difficulty} digits and keep only the last digit of the total (the total mod 10): ${digits}. ` +
        `You may write the running totals mod 10 first. ${ask('the answer digit')}`
      );
    }
    case 'addition': {
      const [a, b] = body.split('+');
      return `Add the two ${difficulty}-digit numbers ${a} + ${b}. ${ask('the sum, written without leading zeros')}`;
    }
    case 'reverse':
      return `Write the digits ${body.slice(1)} in reverse order. ${ask(`the ${difficulty} reversed digits`)}`;
    case 'custom':
      // A task of one's own has no sentence of its own: the instruction is its prompt as written.
      return `${problem.prompt} ${ask('the answer')}`;
  }
}

function problemRow(id: string, split: string, p: Problem, taskId: TaskId | 'custom', d: number, extra: Record<string, string> = {}): string {
  return JSON.stringify({
    id,
    split,
    lab_prompt: p.prompt,
    question: instructPrompt(taskId, p, d),
    answer: p.answer,
    scratchpad: p.scratchpad,
    ...extra,
  });
}

function jsonl(rows: string[]): string {
  return rows.length ? rows.join('\n') + '\n' : '';
}

/** data/*.jsonl and data/schedule.json: the lab's split and the RL prompts of every step. */
function dataFiles(spec: ExperimentSpec): ExportFile[] {
  const root = new Rng(spec.seed);
  const split = experimentSplit(spec, root);
  const t = spec.task.id;
  const d = spec.task.difficulty;
  const steps = Array.from({ length: spec.steps }, (_, s) => stepPromptIndices(root, s + 1, spec.grpo.promptsPerStep, split.rl.length));
  const schedule = {
    about: 'Row indices into rl.jsonl of the prompts of every RL step (steps[0] is step 1), drawn as the lab draws them.',
    prompts_per_step: spec.grpo.promptsPerStep,
    steps,
  };
  return [
    { path: 'data/rl.jsonl', text: jsonl(split.rl.map((p, i) => problemRow(`rl-${i}`, 'rl', p, t, d))) },
    { path: 'data/heldout.jsonl', text: jsonl(split.heldOut.map((p, i) => problemRow(`heldout-${i}`, 'heldout', p, t, d))) },
    {
      path: 'data/labeled.jsonl',
      text: jsonl(
        split.warmStart.map((p, i) =>
          problemRow(`labeled-${i}`, 'labeled', p, t, d, { lab_completion: (p.scratchpad ? p.scratchpad : '') + '>' + p.answer }),
        ),
      ),
    },
    { path: 'data/schedule.json', text: JSON.stringify(schedule) + '\n' },
  ];
}

// ---------------------------------------------------------------------------------------------
// The project
// ---------------------------------------------------------------------------------------------

/** config.json: what train_cohort.py reads (format checked by cohort_plan.load_config). */
function configJson(spec: ExperimentSpec, models: string[], skipped: SkippedArm[], presetId: string | null): string {
  const task = resolveTask(spec.task);
  const config = {
    format: 'cohort-lab-trl',
    version: 2,
    about: 'Exported by Cohort Lab; not run where it was exported. README.md says what maps to what.',
    trl_version: TRL_VERSION,
    preset: presetId,
    seed: spec.seed,
    task: {
      id: spec.task.id,
      difficulty: spec.task.difficulty,
      title: task.title,
      // A task of one's own: how its answers are compared (cohort_rewards.normalise_custom_answer).
      ...(spec.task.id === 'custom' ? { numeric_answers: task.numericAnswers === true } : {}),
    },
    members: spec.members.map((m, i) => ({
      id: m.id,
      model: models[i],
      sampling_seed: samplingSeed(spec.seed, i),
      lab: { family: m.family, dModel: m.dModel, layers: m.layers },
    })),
    arms: spec.arms
      .filter((a) => !skipReason(a))
      .map((a) => ({ id: a.id, scheme: a.scheme, members: a.members, teacher: a.teacher ?? null, tau: a.tau })),
    skipped_arms: skipped,
    lab_steps: spec.steps,
    prompts_per_step: spec.grpo.promptsPerStep,
    grpo: grpoConfig(spec),
  };
  return JSON.stringify(config, null, 2) + '\n';
}

/** The files of the exported project. Throws ExportError on model ids that do not fit, or nothing to export. */
export function buildTrlProject(spec: ExperimentSpec, options: TrlExportOptions, pythonSources: PythonSources): TrlExport {
  const sources = checkSources(pythonSources);
  const models = checkModels(spec, options.models);
  const skipped: SkippedArm[] = spec.arms.flatMap((a) => {
    const reason = skipReason(a);
    return reason ? [{ id: a.id, scheme: a.scheme, reason }] : [];
  });
  const exported = spec.arms.filter((a) => !skipReason(a));
  if (exported.length === 0) {
    throw new ExportError(`no arm can be exported: ${skipped.map((s) => `${s.id} (${s.scheme})`).join(', ')} are intrinsic-reward arms; exported schemes: ${EXPORTED_SCHEMES.join(', ')}`);
  }
  const presetId = options.presetId ?? null;
  const notes = [...sharedModelWarnings(spec.members.map((m) => m.id), models), ...skipped.map((s) => `arm ${s.id} is not exported: ${s.reason}`)];
  const n = spec.grpo.voteSize ?? 0;
  if (n > spec.grpo.groupSize) {
    notes.push(`grpo.voteSize ${n} has no TRL counterpart: the export votes over the G = ${spec.grpo.groupSize} trained completions`);
  }
  const files: ExportFile[] = [
    { path: 'README.md', text: readme(spec, models, skipped, presetId) },
    { path: 'config.json', text: configJson(spec, models, skipped, presetId) },
    { path: 'spec.json', text: JSON.stringify(spec, null, 2) + '\n' },
    { path: 'launch.sh', text: launchScript(spec) },
    { path: ACCELERATE_CONFIGS.one, text: accelerateConfig('one') },
    { path: ACCELERATE_CONFIGS.multi, text: accelerateConfig('multi') },
    { path: 'requirements.txt', text: requirementsTxt() },
    { path: 'requirements-vllm.txt', text: vllmRequirementsTxt() },
    ...PYTHON_FILES.map((name) => ({ path: name, text: sources[name] })),
    ...dataFiles(spec),
  ];
  return { files, notes, exportedArms: exported.map((a) => a.id), skippedArms: skipped };
}

/** A folder name for the project: cohort-lab-<preset or experiment>-trl. */
export function projectName(presetId: string | null | undefined): string {
  const base = presetId && /^[A-Za-z0-9_-]{1,40}$/.test(presetId) ? presetId : 'experiment';
  return `cohort-lab-${base}-trl`;
}
