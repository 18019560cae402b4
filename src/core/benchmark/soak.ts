/**
 * The experiment `npm run soak` runs (cli/bench/soak.ts on Node, src/bench/soak-page.ts in Chromium):
 * a preset's spec for `steps` RL steps with a held-out evaluation every SOAK_EVAL_EVERY steps, as
 * a long run in the lab would. Everything else is the preset's.
 */
import { ExperimentSpecSchema, type ExperimentSpec } from '../experiment/spec';

export const SOAK_EVAL_EVERY = 100;

export function soakSpec(spec: ExperimentSpec, steps: number): ExperimentSpec {
  return ExperimentSpecSchema.parse({ ...structuredClone(spec), steps, evalEvery: SOAK_EVAL_EVERY });
}
