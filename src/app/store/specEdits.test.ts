import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import {
  addArm,
  addMember,
  nextMemberId,
  problemsAt,
  removeArm,
  removeMember,
  toggleArmMember,
  updateArm,
  updateGrpo,
  updateMember,
  validateDraft,
} from './specEdits';
import { MAX_MEMBERS } from '../../core/experiment/spec';

const quick = () => structuredClone(PRESETS.quick.spec);

describe('validateDraft', () => {
  it('accepts every preset', () => {
    for (const p of Object.values(PRESETS)) expect(validateDraft(p.spec).ok).toBe(true);
  });

  it('names the field of an out-of-range or empty number', () => {
    const v = validateDraft(updateGrpo(quick(), { groupSize: 1, learningRate: Number.NaN }));
    expect(v.ok).toBe(false);
    expect(problemsAt(v.problems, 'grpo.groupSize')).toHaveLength(1);
    expect(problemsAt(v.problems, 'grpo.learningRate')).toHaveLength(1);
  });

  it('explains cross-field rules even while another field is malformed', () => {
    let d = updateGrpo(quick(), { groupSize: Number.NaN });
    d = toggleArmMember(d, 2, 'B', false); // peer arm with one member
    const v = validateDraft(d);
    expect(v.ok).toBe(false);
    expect(problemsAt(v.problems, 'arms.2').map((p) => p.message)).toContain('arm peer: peer reward needs exactly 2 members (use ring or cohort for more)');
  });

  it('explains heads that do not divide the width', () => {
    const v = validateDraft(updateMember(quick(), 0, { family: 'transformer', dModel: 16, heads: 3 }));
    expect(problemsAt(v.problems, 'members.0.heads')[0].message).toMatch(/not divisible by 3 heads/);
  });
});

describe('cohort edits', () => {
  it('adds a GRU member with the next id, the family size and the last warm-start budget', () => {
    const d = addMember(quick(), 'gru');
    const c = d.members[2];
    expect(c).toMatchObject({ id: 'C', family: 'gru', dModel: 48, warmStartSteps: 200, warmStartExamples: 500, warmStartTarget: 0.4 });
    // It joins oracle and self, but not the full peer pair.
    expect(d.arms.map((a) => a.members)).toEqual([['A', 'B', 'C'], ['A', 'B', 'C'], ['A', 'B']]);
    expect(validateDraft(d).ok).toBe(true);
  });

  it('removes a member from the cohort and every arm', () => {
    const d = removeMember(addMember(quick(), 'gru'), 1);
    expect(d.members.map((m) => m.id)).toEqual(['A', 'C']);
    expect(d.arms.map((a) => a.members)).toEqual([['A', 'C'], ['A', 'C'], ['A']]);
    // The peer arm is now one short, and says so.
    expect(problemsAt(validateDraft(d).problems, 'arms.2')).toHaveLength(1);
    expect(validateDraft(toggleArmMember(d, 2, 'C', true)).ok).toBe(true);
  });

  it('renames a member everywhere and clears a removed teacher', () => {
    let d = addArm(quick(), 'teacher');
    expect(d.arms[3]).toMatchObject({ id: 'teacher', scheme: 'teacher', teacher: 'A', members: ['B'] });
    d = updateMember(d, 0, { id: 'Alpha' });
    expect(d.arms[3].teacher).toBe('Alpha');
    expect(d.arms[0].members).toEqual(['Alpha', 'B']);
    d = removeMember(d, 0);
    expect(d.arms[3].teacher).toBeUndefined();
    expect(problemsAt(validateDraft(d).problems, 'arms.3.teacher')[0].message).toMatch(/choose a teacher/);
  });

  it('picks fresh ids', () => {
    expect(nextMemberId(quick())).toBe('C');
    const d = addArm(addArm(quick(), 'self'), 'self');
    expect(d.arms.slice(3).map((a) => a.id)).toEqual(['self2', 'self3']);
  });

  it('keeps arm members in cohort order and removes arms', () => {
    let d = addMember(quick(), 'mlp');
    d = toggleArmMember(d, 2, 'A', false);
    d = toggleArmMember(d, 2, 'C', true);
    d = toggleArmMember(d, 2, 'A', true);
    expect(d.arms[2].members).toEqual(['A', 'B', 'C']);
    expect(removeArm(d, 0).arms.map((a) => a.id)).toEqual(['self', 'peer']);
    expect(updateArm(d, 1, { tau: 0.5 }).arms[1].tau).toBe(0.5);
  });

  it("refuses a member past the spec's limit (MAX_MEMBERS)", () => {
    let d = quick();
    for (let i = 0; i < MAX_MEMBERS + 2; i++) d = addMember(d, 'mlp');
    expect(d.members).toHaveLength(MAX_MEMBERS);
  });
});

describe('task rules', () => {
  it('explains a problem space too small for the data sets, even with another field malformed', () => {
    const d = { ...quick(), task: { ...quick().task, difficulty: 2 }, steps: Number.NaN };
    const v = validateDraft(d);
    expect(problemsAt(v.problems, 'data')[0].message).toMatch(/has 100 distinct problems; labeled \+ RL \+ held-out = 964/);
    expect(problemsAt(v.problems, 'steps')).toHaveLength(1);
  });
  it('explains a difficulty outside the task range', () => {
    const v = validateDraft({ ...quick(), task: { ...quick().task, difficulty: 1 } });
    expect(problemsAt(v.problems, 'task.difficulty')[0].message).toMatch(/between 2 and 8/);
  });
});
