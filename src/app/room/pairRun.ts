/**
 * A paired room's pair as one run (class mode: seats 2k and 2k+1 train the two members of the
 * spec's peer arm, memberParts.ts): the two seats' events merged, step by step, into the events a
 * one-browser run of pairSpec(spec, armId) yields (mergeMemberBases, mergeMemberSteps; on wasm the
 * same numbers, docs/METHOD.md "A peer arm across two browsers"), and, once both seats are done,
 * the pair's 'done' folded from them as the runner folds its own (foldEvent). A seat that trained
 * both members alone (the odd student out) made that run itself, and it is taken whole. Until both sides
 * have a step, what exists is shown: a base or a step only one seat has is taken as it is (its
 * own member and the pair's measures). The seats' events come from students' pages: where they
 * do not merge (parts that disagree, or both claiming one member), the pair stops there and
 * `problem` says why.
 */
import { mergeMemberBases, mergeMemberSteps, pairSpec } from '../../core/experiment/memberParts';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { emptySummary, foldEvent } from '../../core/experiment/summary';
import { median } from '../../core/median';
import type { RecordedEvent } from '../store/record';

type Base = Extract<RecordedEvent, { type: 'base' }>;
type Progress = Extract<RecordedEvent, { type: 'step' | 'nonfinite' }>;

export interface PairRun {
  /** pairSpec of the seats' experiment: the arm and its two members. */
  spec: ExperimentSpec;
  events: RecordedEvent[];
  /** Why the merge stopped before the seats' last events (null: it did not). */
  problem: string | null;
}

const said = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * The pair of `armId` from its seats' events (each seat's run of `spec`, the pair's seed: whole,
 * its 'done' restored). `sides`: one or two seats' events.
 */
export function mergePairRun(spec: ExperimentSpec, armId: string, sides: readonly (readonly RecordedEvent[])[]): PairRun {
  const one = pairSpec(spec, armId);
  const out: PairRun = { spec: one, events: [], problem: null };
  // A seat that trained alone (no partner) made the pair's one-browser run itself: it is the pair's.
  const both = (e: RecordedEvent | undefined) => e?.type === 'base' && one.arms[0].members.every((id) => e.members.some((m) => m.id === id));
  const whole = sides.find((evs) => both(evs[0]));
  if (whole) return { ...out, events: [...whole] };
  const bases = sides.map((evs) => evs[0]).filter((e): e is Base => e?.type === 'base');
  if (bases.length === 0) return out;
  try {
    out.events.push(bases.length === 2 ? mergeMemberBases(spec, armId, bases) : bases[0]);
  } catch (e) {
    out.problem = `the pair's bases do not merge: ${said(e)}`;
    return out;
  }
  const progress = sides.map((evs) => new Map(evs.filter((e): e is Progress => e.type === 'step' || e.type === 'nonfinite').map((e) => [e.step, e])));
  const stepMs: number[] = [];
  for (let s = 1; s <= spec.steps; s++) {
    const at = progress.map((m) => m.get(s)).filter((e): e is Progress => e !== undefined);
    if (at.length === 0) break;
    let ev: Progress;
    try {
      ev = at.length === 2 ? mergeMemberSteps(spec, armId, at, Math.max(...at.map((e) => (e.type === 'step' ? e.stepMs : 0)))) : at[0];
    } catch (e) {
      out.problem = `the pair's step ${s} does not merge: ${said(e)}`;
      return out;
    }
    out.events.push(ev);
    if (ev.type === 'nonfinite') return out;
    stepMs.push(ev.stepMs);
  }
  const dones = sides.flatMap((evs) => evs.filter((e): e is Extract<RecordedEvent, { type: 'done' }> => e.type === 'done'));
  if (sides.length === 2 && dones.length === 2 && stepMs.length === spec.steps && out.events[0].type === 'base' && bases.length === 2) {
    const summary = emptySummary(one, dones[0].summary.backend);
    for (const e of out.events) foldEvent(summary, e, one);
    summary.medianStepMs = median(stepMs);
    out.events.push({ type: 'done', summary });
  }
  return out;
}
