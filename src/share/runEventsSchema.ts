/**
 * zod schemas for the runner events a run file (bundle.ts) carries: 'base', 'step' and 'done'
 * (src/core/experiment/events.ts; warm-start progress is never recorded). A run file is untrusted
 * input, so every array has a bound, every string a length limit, every id the spec's id pattern
 * (which also keeps keys like "__proto__" out of the per-member records), and every number is
 * finite, or null where the type allows null.
 *
 * JSON has no NaN: a metric the runner reported as NaN (an update that diverged) is written as
 * null by JSON.stringify. Fields typed `number` that hold measured values (`measured` below) read
 * a null back as NaN, which is what the live run held and what the charts draw as a gap; counters
 * (steps, parameters, tokens) must be finite numbers. The member, pair and summary schemas are
 * shared with result files and checkpoints (src/core/experiment/summarySchema.ts).
 */
import { z } from 'zod';
import { REWARD_SCHEMES } from '../core/experiment/spec';
import { JSON_SUMMARY, RUN_LIMITS, count, measuredInJson as measured, nullableNumber as nullable, runId as id, stepNumber as step } from '../core/experiment/summarySchema';
import type { RecordedEvent } from '../app/store/record';

/** Upper bounds of a run file (the summary schemas' limits, src/core/experiment/summarySchema.ts). */
export { RUN_LIMITS };

const L = RUN_LIMITS;
const text = z.string().max(L.text);

export const MemberStepMetricsSchema = JSON_SUMMARY.MemberStepMetrics;
const { PairMetrics: PairMetricsSchema, MemberInfo: MemberInfoSchema, BaseEvaluation: BaseEvaluationSchema, BasePair: BasePairSchema, RunSummary: RunSummarySchema } = JSON_SUMMARY;

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
]);

/** 'base', one 'step' per RL step, and 'done': at most this many events. */
export const MAX_EVENTS = L.steps + 2;
export const RecordedEventsSchema = z.array(RecordedEventSchema).max(MAX_EVENTS);

// The schemas follow events.ts: their output is a RecordedEvent (the summary's schemas are
// checked against their types in summarySchema.ts).
type Parsed = z.output<typeof RecordedEventSchema>;
export const asRecordedEvent = (e: Parsed): RecordedEvent => e;
