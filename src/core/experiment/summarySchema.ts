/**
 * zod schemas of what a run reports about its members and summary (events.ts: MemberStepMetrics,
 * PairMetrics, MemberInfo, BaseEvaluation, BasePair, RunSummary), for every place that reads them
 * back: run files (src/share/runEventsSchema.ts), result files (resultFile.ts) and checkpoints
 * (checkpoint.ts). Every array has a bound, every string a length limit, every id the spec's id
 * pattern, and every number is finite, or null where the type allows null.
 *
 * The one difference between readers is how a measured value that is not finite arrives:
 *   - JSON has no NaN: a metric the runner reported as NaN (an update that diverged) is written
 *     as null by JSON.stringify, so in run and result files a null in a field typed `number`
 *     that holds a measured value reads back as NaN (what the live run held, a gap in a chart);
 *   - a checkpoint is structured-cloned, and nothing non-finite may be restored: none is accepted.
 * Counters (steps, parameters, tokens) are finite in both.
 */
import { z } from '../zod';
import { REWARD_SCHEMES } from './spec';
import type { BasePair, MemberInfo, MemberStepMetrics, PairMetrics, RunSummary } from './events';

/** Upper bounds of what a run reports, each at or above what the spec schema allows. */
export const RUN_LIMITS = {
  /** RL steps (the spec's `steps` maximum). */
  steps: 5000,
  /** Arms and members (spec: at most 10 arms, 8 members). */
  arms: 10,
  members: 8,
  /** Pairs of members: 8 choose 2. */
  pairs: 28,
  /** Completions per member in a rollout sample (n_vote <= 64). */
  completions: 64,
  /** Characters of a prompt, an answer or a completion. */
  text: 256,
  /** Characters of a label, a family name or a backend name. */
  label: 200,
  /** Characters of a warm-start note. */
  note: 2000,
} as const;

const L = RUN_LIMITS;
// zod 4's z.number() is finite only: NaN and ±Infinity are refused.
/** A measured value in JSON: a number, or null for the NaN JSON cannot hold. */
export const measuredInJson = z.union([z.number(), z.null().transform(() => Number.NaN)]);
export const nullableNumber = z.number().nullable();
export const count = z.number().int().min(0).max(1e12);
export const stepNumber = z.number().int().min(0).max(L.steps);
export const runId = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'ids are 1-24 letters, digits, - or _, starting with a letter');
export const label = z.string().max(L.label);

/** The schemas, with `measured` reading the measured values (measuredInJson, or z.number() for finite only). */
export function summarySchemas<M extends z.ZodType<number>>(measured: M) {
  const nullable = nullableNumber;
  const step = stepNumber;
  const id = runId;

  const MemberStepMetrics = z.object({
    reward: measured,
    oracleReward: measured,
    pseudoLabelAccuracy: nullable,
    rewardAccuracy: nullable,
    rewardGap: nullable,
    ownVoteAccuracy: measured,
    rescueRate: nullable,
    misleadRate: nullable,
    sharedErrorRate: nullable,
    labeledFraction: measured,
    majorityRatio: measured,
    tieRate: measured,
    entropy: measured,
    length: measured,
    capFraction: measured,
    malformedFraction: measured,
    rewardStd: measured,
    zeroStdFraction: measured,
    supervisionContainsTruth: nullable,
    topAnswerShare: measured,
    loss: measured,
    kl: nullable,
    clipFraction: measured,
    gradNorm: measured,
    evalPassAt1: measured.optional(),
    evalMajAtG: measured.optional(),
  });

  const PairMetrics = z.object({
    a: id,
    b: id,
    agreement: nullable,
    kappa: nullable,
    bothWrongSame: measured,
    evalKappa: nullable.optional(),
    evalBothWrongSame: measured.optional(),
  });

  const MemberInfo = z.object({
    id,
    family: label,
    params: count,
    label,
    warmStartSteps: count.optional(),
    warmStartSource: z.enum(['trained', 'shipped', 'cached']).optional(),
    warmStartBackend: label.optional(),
    warmStartNote: z.string().max(L.note).optional(),
    warmStartReached: z.boolean().optional(),
    warmStartBest: measured.optional(),
    warmStartLast: measured.optional(),
    warmStartInitSeed: count.optional(),
    warmStartRetries: count.optional(),
  });

  const BaseEvaluation = z.object({ memberId: id, passAt1: measured, majAtG: measured, warmStartSteps: count.optional() });

  const BasePair = z.object({
    a: id,
    b: id,
    kappa: nullable,
    bothWrongSame: measured,
    passCorrelation: nullable.optional(),
    pooledMajAtG: measured.optional(),
  });

  const RunSummary = z.object({
    seed: count,
    arms: z
      .array(
        z.object({
          id,
          scheme: z.enum(REWARD_SCHEMES),
          members: z
            .array(
              z.object({
                id,
                family: label,
                params: count,
                history: z.array(MemberStepMetrics.extend({ step })).max(L.steps),
                collapseStep: step.nullable(),
              }),
            )
            .max(L.members),
          pairs: z.array(PairMetrics.extend({ step })).max(L.pairs * L.steps),
          ensemble: z.array(z.object({ step, majAtG: measured })).max(L.steps),
        }),
      )
      .max(L.arms),
    base: z.array(BaseEvaluation).max(L.members),
    baseKappa: z.array(BasePair).max(L.pairs),
    medianStepMs: measured,
    backend: label,
    /** Where a run stopped on a non-finite number (the runner's 'nonfinite' event). */
    halt: z.object({ step: step.min(1), armId: id, memberId: id, quantity: z.enum(['loss', 'gradient', 'weight']) }).optional(),
  });

  return { MemberStepMetrics, PairMetrics, MemberInfo, BaseEvaluation, BasePair, RunSummary };
}

/** As result files hold them (JSON: null reads as NaN; run files refuse it: src/share/runEventsSchema.ts). */
export const JSON_SUMMARY = summarySchemas(measuredInJson);
/** As a checkpoint holds them (structured clone: only finite numbers). */
export const FINITE_SUMMARY = summarySchemas(z.number());

// The schemas follow events.ts: a field added to one of the types but not to its schema (zod
// would drop it from what it reads) fails the typecheck here.
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Out<S extends z.ZodType> = z.output<S>;
type S = typeof FINITE_SUMMARY;
export const SCHEMAS_FOLLOW_TYPES: [
  SameKeys<MemberStepMetrics, Out<S['MemberStepMetrics']>>,
  SameKeys<PairMetrics, Out<S['PairMetrics']>>,
  SameKeys<MemberInfo, Out<S['MemberInfo']>>,
  SameKeys<BasePair, Out<S['BasePair']>>,
  SameKeys<RunSummary, Out<S['RunSummary']>>,
  SameKeys<RunSummary['arms'][number], Out<S['RunSummary']>['arms'][number]>,
] = [true, true, true, true, true, true];
/** What the schemas give is the type the code uses. */
export const asRunSummary = (s: Out<S['RunSummary']> | Out<(typeof JSON_SUMMARY)['RunSummary']>): RunSummary => s;
