/**
 * Test helper for the warm-start guard's retries (docs/WARMSTARTS.md, "The guard"): a warm-start
 * target that one init seed misses and the next one reaches, found by warm-starting a one-member
 * spec with an unreachable target and reading each seed's best validation value.
 */
import { buildMember } from '../experiment/cohort';
import { warmStartInputs } from '../experiment/warmStartCache';
import type { ExperimentSpec } from '../experiment/spec';

/** The best validation value member 0 of `specOf(initSeed, target)` reaches within its budget. */
async function bestOf(specOf: (initSeed: number, target: number) => ExperimentSpec, initSeed: number): Promise<number> {
  const spec = specOf(initSeed, 0.999);
  const w = await buildMember(warmStartInputs(spec), spec.members[0]);
  w.reference.dispose();
  return w.info.warmStartBest!;
}

/**
 * The first init seed in 1..7 whose successor's best value is at least 1.2x its own, and a target
 * between the two (their geometric mean); target NaN when there is none.
 */
export async function targetBetweenSeeds(specOf: (initSeed: number, target: number) => ExperimentSpec): Promise<{ first: number; target: number }> {
  for (let first = 1; first < 8; first++) {
    const [x, y] = [await bestOf(specOf, first), await bestOf(specOf, first + 1)];
    if (y > x * 1.2) return { first, target: Math.sqrt(x * y) };
  }
  return { first: 8, target: NaN };
}
