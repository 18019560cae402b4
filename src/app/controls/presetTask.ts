/**
 * Whether an experiment still asks its preset's question, pure. A preset's title, its paragraph
 * for students and its seeds' measured numbers are about the preset's task: an experiment on
 * another task (a gallery task, one's own, another built-in task or difficulty) keeps the
 * preset's cohort and arms but none of what was measured, and is named by its task, not as "an
 * edited experiment" (an edit that keeps the task: steps, seed, a member's width).
 */
import { getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { taskContentHash } from '../../core/tasks/custom/index';
import { TASKS } from '../../core/tasks/index';
import { galleryTaskOf } from './taskEditorModel';

/** The task an experiment asks when it is not its preset's: its title and where it comes from. */
export interface OtherTask {
  title: string;
  kind: 'gallery' | 'own' | 'builtin';
}

/** Two tasks are one when their id, difficulty and (for a task of one's own) content agree. */
function sameTask(a: ExperimentSpec['task'], b: ExperimentSpec['task']): boolean {
  if (a.id !== b.id || a.difficulty !== b.difficulty) return false;
  if (a.id !== 'custom') return true;
  return !!a.definition && !!b.definition && taskContentHash(a.definition) === taskContentHash(b.definition);
}

/**
 * The task an experiment asks (`task`, its spec's), when it is not the task of preset `presetId`
 * (null: the preset's own, or no such preset). A task of one's own is hashed: callers keep the
 * answer while the task stays the same object (useMemo), not once per store update.
 */
export function otherTask(task: ExperimentSpec['task'], presetId: string | null): OtherTask | null {
  const preset = presetId ? getPreset(presetId) : undefined;
  if (!preset || sameTask(task, preset.spec.task)) return null;
  if (task.id === 'custom') {
    const title = task.definition?.title ?? 'your task';
    return { title, kind: galleryTaskOf(task.definition) ? 'gallery' : 'own' };
  }
  const t = TASKS[task.id];
  const ranged = t.difficultyRange[0] !== t.difficultyRange[1];
  return { title: ranged ? `${t.title}, difficulty ${task.difficulty}` : t.title, kind: 'builtin' };
}

/** The name of an experiment that keeps its preset's task but not all its settings. */
export const EDITED_EXPERIMENT = 'An edited experiment';

/**
 * The experiment's name, where the page names it (a class room, the start of the page): the
 * preset's title, the task's title when it asks another question, else "An edited experiment".
 */
export function experimentTitle(spec: ExperimentSpec, presetId: string, edited: boolean): string {
  const other = otherTask(spec.task, presetId);
  if (other) return other.title;
  if (!edited) return getPreset(presetId)?.title ?? presetId;
  return EDITED_EXPERIMENT;
}

/** Why the preset's seed results are not beside a run's claims (a run of no preset, or of another task). */
export function noSeedResultsText(spec: ExperimentSpec | null, presetId: string): string {
  const other = spec ? otherTask(spec.task, presetId) : null;
  if (!other) return `${EDITED_EXPERIMENT}: the 8-seed results do not apply.`;
  return `"${other.title}" is not the preset's task: the preset's results over seeds were measured on its own task and do not apply.`;
}
