/**
 * The warm start of the whole cohort, as a stream of progress events: each member is built once
 * (loaded from a WarmStartCache when one matches, else trained), in spec order, while its
 * progress events stream out as they arrive. The runner yields these to its consumer.
 */
import type { Rng } from '../random';
import type { Problem } from '../tasks/types';
import type { ExperimentSpec } from './spec';
import type { RunnerEvent } from './events';
import type { WarmMember } from './cohort';
import { loadOrBuildMember, type WarmStartCache } from './warmStartCache';

export interface CohortWarmStart {
  spec: ExperimentSpec;
  /** The labeled pool members draw their warm-start sets from. */
  pool: Problem[];
  vocabSize: number;
  maxLen: number;
  root: Rng;
  /** The backend in use (part of a stored warm start's key). */
  backend: string;
  cache?: WarmStartCache;
}

/**
 * Build every member into `warm`, yielding 'warmstart' events. `stopped()` is checked after each
 * member: once true, the member just built is disposed and the stream ends. A consumer that stops
 * pulling mid-member leaves nothing behind either: that member is disposed when it is done.
 */
export async function* warmStartCohort(
  c: CohortWarmStart,
  warm: Map<string, WarmMember>,
  stopped: () => boolean,
): AsyncGenerator<RunnerEvent, void, void> {
  const { spec } = c;
  for (let i = 0; i < spec.members.length; i++) {
    const m = spec.members[i];
    const queue: RunnerEvent[] = [];
    let wake: (() => void) | null = null;
    let finished = false;
    const building = loadOrBuildMember(spec, m, c.pool, c.vocabSize, c.maxLen, c.root, c.backend, c.cache, (s, n, loss) => {
      queue.push({
        type: 'warmstart',
        memberId: m.id,
        step: s,
        steps: n,
        loss,
        memberIndex: i,
        memberCount: spec.members.length,
        ...(m.warmStartTarget > 0 ? { target: m.warmStartTarget } : {}),
      });
      wake?.();
    }).finally(() => {
      finished = true;
      wake?.();
    });
    try {
      while (!finished || queue.length > 0) {
        if (queue.length > 0) yield queue.shift()!;
        else await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      // The consumer stopped pulling mid warm start: the member still being built is disposed
      // when it is done, so a stopped run leaves no tensor behind.
      if (!finished) void building.then((w) => w.reference.dispose());
    }
    const w = await building;
    if (stopped()) {
      w.reference.dispose();
      return;
    }
    warm.set(m.id, w);
    if (m.warmStartSteps === 0 || w.source !== 'trained') {
      // No progress was reported: one event says the member is ready.
      yield { type: 'warmstart', memberId: m.id, step: 0, steps: 0, loss: NaN, memberIndex: i, memberCount: spec.members.length };
    }
    if (stopped()) return;
  }
}
