/**
 * zod schemas for the runner events a run file (bundle.ts) carries: 'base', 'step', and at the
 * end 'done' or 'nonfinite' (src/core/experiment/events.ts; warm-start progress is never
 * recorded). A run file is untrusted input, so every array has a bound, every string a length
 * limit, every id the spec's id pattern (which also keeps keys like "__proto__" out of the
 * per-member records), and every number is finite, or null where the type allows null.
 *
 * No NaN or infinity is ever read in: zod 4's z.number() refuses them, and JSON has none (1e999
 * parses as Infinity and is refused too). A run that blows up stops at that step with a
 * 'nonfinite' event instead of a step full of NaN (docs/RELIABILITY.md, "Numerical blow-ups"), so
 * the only way a metric typed `number` is null in a file is a NaN that JSON.stringify wrote as
 * null, from a Cohort Lab that did not stop such runs yet: refused, with that said.
 *
 * The member, pair and summary schemas are shared with result files and checkpoints
 * (src/core/experiment/summarySchema.ts), here with `measured` refusing a null.
 */
import { z } from '../core/zod';
import { REWARD_SCHEMES } from '../core/experiment/spec';
import { RUN_LIMITS, count, runId as id, stepNumber as step, summarySchemas } from '../core/experiment/summarySchema';
import type { RecordedEvent } from './record';

/** Upper bounds of a run file (the summary schemas' limits, src/core/experiment/summarySchema.ts). */
export { RUN_LIMITS };

const L = RUN_LIMITS;
const NONFINITE_QUANTITIES = ['loss', 'gradient', 'weight'] as const;
const NONFINITE_VALUES = ['NaN', 'Infinity', '-Infinity'] as const;
// zod 4's z.number() is finite only: NaN and ±Infinity are refused.
const measured = z.number({
  error: (issue) => (issue.input === null ? 'a NaN written as null (a run that diverged): not a number' : undefined),
});
const RUN_FILE_SUMMARY = summarySchemas(measured);
const text = z.string().max(L.text);

export const MemberStepMetricsSchema = RUN_FILE_SUMMARY.MemberStepMetrics;
const { PairMetrics: PairMetricsSchema, MemberInfo: MemberInfoSchema, BaseEvaluation: BaseEvaluationSchema, BasePair: BasePairSchema, RunSummary: RunSummarySchema } = RUN_FILE_SUMMARY;

const ArmStepMetricsSchema = z.object({
  armId: id,
  scheme: z.enum(REWARD_SCHEMES),
  members: z.record(id, MemberStepMetricsSchema).refine((m) => Object.keys(m).length <= L.members, `at most ${L.members} members`),
  pairs: z.array(PairMetricsSchema).max(L.pairs),
  ensembleMajAtG: measured.optional(),
});

const answers = z.array(z.string().max(L.text).nullable()).max(L.completions);

const RolloutSampleSchema = z.object({
  armId: id,
  prompt: text,
  truth: text,
  members: z
    .array(
      z.object({
        memberId: id,
        completions: answers,
        answers,
        plurality: text.nullable(),
        pseudoLabel: text.nullable(),
        rewards: z.array(measured).max(L.completions),
        oracleRewards: z.array(measured).max(L.completions),
      }),
    )
    .max(L.members),
});

export const RecordedEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('base'),
    members: z.array(MemberInfoSchema).max(L.members),
    base: z.array(BaseEvaluationSchema).max(L.members),
    baseKappa: z.array(BasePairSchema).max(L.pairs),
  }),
  z.object({
    type: z.literal('step'),
    step: step.min(1),
    steps: step.min(1),
    arms: z.array(ArmStepMetricsSchema).max(L.arms),
    samples: z.array(RolloutSampleSchema).max(L.arms),
    stepMs: z.number().min(0),
    tokens: count,
  }),
  z.object({ type: z.literal('done'), summary: RunSummarySchema }),
  z.object({
    type: z.literal('nonfinite'),
    step: step.min(1),
    armId: id,
    memberId: id,
    quantity: z.enum(NONFINITE_QUANTITIES),
    value: z.enum(NONFINITE_VALUES),
    explanation: z.string().max(L.note),
  }),
]);

/** 'base', one 'step' per RL step, and 'done' or 'nonfinite': at most this many events. */
export const MAX_EVENTS = L.steps + 2;
export const RecordedEventsSchema = z.array(RecordedEventSchema).max(MAX_EVENTS);

// The schemas follow events.ts: their output is a RecordedEvent (the summary's schemas are
// checked against their types in summarySchema.ts).
type Parsed = z.output<typeof RecordedEventSchema>;
export const asRecordedEvent = (e: Parsed): RecordedEvent => e;
