/**
 * Edits of the draft experiment spec, as pure `(spec, ...) -> spec` functions (excalidraw's
 * actions). The draft may be invalid while the user edits (a NaN in an empty number field, a
 * peer arm with three members); `validateDraft` says what is wrong and where.
 */
import { member } from '../../core/experiment/presets';
import type { ArmSpec, ExperimentSpec, MemberSpec, RewardSchemeId } from '../../core/experiment/spec';
import { ExperimentSpecSchema, MAX_MEMBERS, specProblems, taskProblems, warmStartProblems } from '../../core/experiment/spec';
import { TASKS } from '../../core/tasks/index';

export type Family = MemberSpec['family'];

export interface FieldProblem {
  /** Dotted path, e.g. "members.1.heads" or "grpo.learningRate". */
  path: string;
  message: string;
}

export type DraftValidation = { ok: true; spec: ExperimentSpec; problems: [] } | { ok: false; problems: FieldProblem[] };

/** zod's errors plus the cross-field and task rules (which zod skips while a field is malformed). */
export function validateDraft(draft: ExperimentSpec): DraftValidation {
  const r = ExperimentSpecSchema.safeParse(draft);
  if (r.success) return { ok: true, spec: r.data, problems: [] };
  const problems: FieldProblem[] = [];
  const seen = new Set<string>();
  const add = (path: (string | number | symbol)[], message: string) => {
    const key = `${path.map(String).join('.')}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    problems.push({ path: path.map(String).join('.'), message });
  };
  for (const issue of r.error.issues) add(issue.path as (string | number)[], issue.message);
  for (const p of specProblems(draft)) add(p.path, p.message);
  for (const p of warmStartProblems(draft)) add(p.path, p.message);
  if (draft.task.id === 'custom' || TASKS[draft.task.id]) for (const p of taskProblems(draft)) add(p.path, p.message);
  return { ok: false, problems };
}

/** Problems at `path` or below it (e.g. "arms.0" also returns "arms.0.members"). */
export function problemsAt(problems: readonly FieldProblem[], path: string): FieldProblem[] {
  return problems.filter((p) => p.path === path || p.path.startsWith(path + '.'));
}

/** Problems exactly at `path`. */
export function problemsExactly(problems: readonly FieldProblem[], path: string): FieldProblem[] {
  return problems.filter((p) => p.path === path);
}

/** The first free single-letter id (A, B, ...), then M7, M8, ... */
export function nextMemberId(spec: ExperimentSpec): string {
  const used = new Set(spec.members.map((m) => m.id));
  for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') if (!used.has(c)) return c;
  let i = spec.members.length + 1;
  while (used.has(`M${i}`)) i++;
  return `M${i}`;
}

/** Schemes whose arms accept any number of members, so a new member can join them. */
function acceptsAnotherMember(arm: ArmSpec): boolean {
  if (arm.scheme === 'peer') return arm.members.length < 2;
  return arm.members.length < 6;
}

/**
 * Add a member of `family` at the family's default size, with the warm-start budget of the last
 * member (so a quick preset stays quick). It joins every arm that can take another member.
 */
export function addMember(spec: ExperimentSpec, family: Family): ExperimentSpec {
  if (spec.members.length >= MAX_MEMBERS) return spec;
  const last = spec.members[spec.members.length - 1];
  const id = nextMemberId(spec);
  const m = member({
    id,
    family,
    ...(last ? { warmStartSteps: last.warmStartSteps, warmStartExamples: last.warmStartExamples, warmStartTarget: last.warmStartTarget } : {}),
  });
  return {
    ...spec,
    members: [...spec.members, m],
    arms: spec.arms.map((a) => (acceptsAnotherMember(a) ? { ...a, members: [...a.members, id] } : a)),
  };
}

/** Remove a member, and take it out of every arm (a teacher that was it is cleared). */
export function removeMember(spec: ExperimentSpec, index: number): ExperimentSpec {
  const gone = spec.members[index];
  if (!gone) return spec;
  return {
    ...spec,
    members: spec.members.filter((_, i) => i !== index),
    arms: spec.arms.map((a) => ({
      ...a,
      members: a.members.filter((m) => m !== gone.id),
      teacher: a.teacher === gone.id ? undefined : a.teacher,
    })),
  };
}

export function updateMember(spec: ExperimentSpec, index: number, patch: Partial<MemberSpec>): ExperimentSpec {
  const old = spec.members[index];
  if (!old) return spec;
  const renamed = patch.id !== undefined && patch.id !== old.id ? patch.id : null;
  return {
    ...spec,
    members: spec.members.map((m, i) => (i === index ? { ...m, ...patch } : m)),
    // Renaming a member renames it in the arms too.
    arms: renamed
      ? spec.arms.map((a) => ({
          ...a,
          members: a.members.map((x) => (x === old.id ? renamed : x)),
          teacher: a.teacher === old.id ? renamed : a.teacher,
        }))
      : spec.arms,
  };
}

function nextArmId(spec: ExperimentSpec, scheme: string): string {
  const used = new Set(spec.arms.map((a) => a.id));
  const base = scheme.replace(/[^A-Za-z0-9_-]/g, '-');
  if (!used.has(base)) return base;
  let i = 2;
  while (used.has(`${base}${i}`)) i++;
  return `${base}${i}`;
}

/** A new arm of `scheme` with a sensible member set: two for peer, all for the rest. */
export function addArm(spec: ExperimentSpec, scheme: RewardSchemeId): ExperimentSpec {
  if (spec.arms.length >= 8) return spec;
  const ids = spec.members.map((m) => m.id);
  const members = scheme === 'peer' ? ids.slice(0, 2) : ids.slice(0, 6);
  const arm: ArmSpec = { id: nextArmId(spec, scheme), scheme, members, tau: 0 };
  if (scheme === 'teacher') {
    arm.teacher = ids[0];
    arm.members = ids.slice(1, 7).length ? ids.slice(1, 7) : ids.slice(0, 1);
  }
  return { ...spec, arms: [...spec.arms, arm] };
}

export function removeArm(spec: ExperimentSpec, index: number): ExperimentSpec {
  return { ...spec, arms: spec.arms.filter((_, i) => i !== index) };
}

export function updateArm(spec: ExperimentSpec, index: number, patch: Partial<ArmSpec>): ExperimentSpec {
  return { ...spec, arms: spec.arms.map((a, i) => (i === index ? { ...a, ...patch } : a)) };
}

/** Add or remove one member of an arm, keeping the cohort's order. */
export function toggleArmMember(spec: ExperimentSpec, armIndex: number, memberId: string, on: boolean): ExperimentSpec {
  const arm = spec.arms[armIndex];
  if (!arm) return spec;
  const set = new Set(arm.members);
  if (on) set.add(memberId);
  else set.delete(memberId);
  const order = spec.members.map((m) => m.id);
  const members = [...set].sort((a, b) => order.indexOf(a) - order.indexOf(b));
  return updateArm(spec, armIndex, { members });
}

export function updateGrpo(spec: ExperimentSpec, patch: Partial<ExperimentSpec['grpo']>): ExperimentSpec {
  return { ...spec, grpo: { ...spec.grpo, ...patch } };
}

export function updateTask(spec: ExperimentSpec, patch: Partial<ExperimentSpec['task']>): ExperimentSpec {
  return { ...spec, task: { ...spec.task, ...patch } };
}
