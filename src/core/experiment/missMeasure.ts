/**
 * The measurements a warm-start miss is read from (missCause.ts), taken from the member the warm
 * start ended with: one forward pass over the rows it trained on, the validation value it already
 * has, the labeled rows' most common completion, and, for an MLP, its window's ceiling (no training).
 */
import { validationValue } from '../warmstart';
import { taskCodec } from '../tasks/index';
import type { ScratchpadMode } from '../tasks/types';
import { labeledSplit, MAX_VALIDATION, warmStartRng, type WarmMember, type WarmStartInputs } from './cohort';
import { MOST_WINDOW, specSequences } from './fitMembers';
import { missCause, promptBlindChance, type MissCause, type MissMeasurements } from './missCause';
import { narrowestCover, windowReach } from './windowReach';

/** What a missed member measures: its fit on its training rows against its held-out best, chance and its window. */
export async function measureMiss(c: WarmStartInputs, w: WarmMember, best: number | null): Promise<MissMeasurements> {
  const member = w.spec;
  const scratchpad = c.spec.task.scratchpad as ScratchpadMode;
  const { train, validation } = labeledSplit(c.pool, member, c.root);
  const fit = await validationValue(w.reference, train.slice(0, MAX_VALIDATION), scratchpad, warmStartRng(member, c.root), taskCodec(c.task, c.spec.task.difficulty));
  const window =
    member.family === 'mlp'
      ? (() => {
          const seqs = specSequences(c.spec);
          const reach = windowReach(seqs, member.window);
          return { reach, cover: reach.covers ? member.window : (narrowestCover(seqs, member.window + 1, MOST_WINDOW)?.window ?? null) };
        })()
      : {};
  return {
    memberId: member.id,
    target: member.warmStartTarget,
    steps: member.warmStartSteps,
    width: member.dModel,
    heldOut: best,
    fit,
    trainRows: train.length,
    heldOutRows: validation.length,
    chance: promptBlindChance([...train, ...validation], scratchpad),
    ...(c.spec.task.definition?.kind === 'generator' ? { generatorProblems: c.task.problemCount(c.spec.task.difficulty) } : {}),
    ...window,
  };
}

/** The measured cause of a member's miss. */
export async function diagnoseMiss(c: WarmStartInputs, w: WarmMember, best: number | null): Promise<{ measured: MissMeasurements; cause: MissCause }> {
  const measured = await measureMiss(c, w, best);
  return { measured, cause: missCause(measured) };
}
