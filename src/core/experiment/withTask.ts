/**
 * An experiment with a task of one's own in place of its task, as the page's task editor and
 * `npm run experiment -- --task-file` both make it: the spec's data sizes where the task's
 * problems fill them, else sizes that fit (a fifth held out, three tenths for RL, the rest to
 * warm-start on), and members' warm-start sets that fit the labeled pool. Either the spec, with
 * the check's warnings and notes, or the findings that stop it, in words.
 */
import { checkTaskDefinition, type TaskDefinition, type TaskFinding } from '../tasks/custom/index';
import { fitMembers } from './fitMembers';
import { parseSpec, type ExperimentSpec } from './spec';

export type WithTask = { ok: true; spec: ExperimentSpec; findings: TaskFinding[] } | { ok: false; findings: TaskFinding[] };

/** Fewest distinct problems a run can split into warm-start, RL and held-out parts. */
export const MIN_TASK_PROBLEMS = 20;

const refused = (findings: TaskFinding[]): WithTask => ({ ok: false, findings });

export function specWithTask(spec: ExperimentSpec, def: TaskDefinition): WithTask {
  const first = checkTaskDefinition(def);
  if (!first.task) return refused(first.findings.filter((f) => f.severity === 'error'));
  const count = first.task.problemCount(1);
  let data = spec.data;
  if (data.labeledPool + data.rlPool + data.heldOut > count) {
    if (count < MIN_TASK_PROBLEMS) {
      return refused([
        { severity: 'error', message: `the task has ${count} distinct problems; a run needs at least ${MIN_TASK_PROBLEMS} (warm start, RL and held-out, with no prompt in two)` },
      ]);
    }
    const heldOut = Math.max(4, Math.min(data.heldOut, Math.floor(count / 5)));
    const rlPool = Math.max(1, Math.min(data.rlPool, Math.floor((3 * count) / 10)));
    data = { heldOut, rlPool, labeledPool: Math.min(data.labeledPool, count - heldOut - rlPool) };
  }
  const members = spec.members.map((m) => {
    // A member with a target validates on the labeled problems it does not train on: keep a tenth.
    const most = m.warmStartTarget > 0 ? data.labeledPool - Math.max(1, Math.floor(data.labeledPool / 10)) : data.labeledPool;
    return m.warmStartExamples > most ? { ...m, warmStartExamples: most } : m;
  });
  const candidate = { ...spec, task: { id: 'custom' as const, difficulty: 1, scratchpad: spec.task.scratchpad, definition: def }, data, members };
  const parsed = parseSpec(candidate);
  if (!parsed.ok) return refused(parsed.errors.map((message) => ({ severity: 'error' as const, message: `the experiment with this task is not valid: ${message}` })));
  const checked = checkTaskDefinition(def, data);
  // Members that cannot see what the answers depend on are fitted to the task (fitMembers.ts),
  // in the spec itself, so the link and the run file carry them; the note says which and why.
  const fitted = fitMembers(parsed.spec);
  const refitted = fitted.fits.length ? parseSpec(fitted.spec) : parsed;
  const fittedSpec = refitted.ok ? refitted.spec : parsed.spec;
  const notes: TaskFinding[] = refitted.ok ? fitted.fits.map((f) => ({ severity: 'note', message: f.why })) : [];
  return { ok: true, spec: fittedSpec, findings: [...checked.findings.filter((f) => f.severity !== 'error'), ...notes] };
}
