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
 * (steps, parameters, tokens) must be finite numbers.
 */
import { z } from '../core/zod';
import { REWARD_SCHEMES } from '../core/experiment/spec';
import type { BasePair, MemberInfo, MemberStepMetrics, PairMetrics, RunSummary } from '../core/experiment/events';
import type { RecordedEvent } from '../app/store/record';

/** Upper bounds of a run file, each at or above what the spec schema allows. */
export const RUN_LIMITS = {
  /** RL steps (the spec's `steps` maximum). */
  steps: 5000,
  /** Arms and members (spec: at most 10 arms, 6 members). */
  arms: 10,
  members: 6,
  /** Pairs of members: 6 choose 2. */
  pairs: 15,
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
const measured = z.union([z.number(), z.null().transform(() => Number.NaN)]);
const nullable = z.number().nullable();
const count = z.number().int().min(0).max(1e12);
const step = z.number().int().min(0).max(L.steps);
const id = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,23}$/, 'ids are 1-24 letters, digits, - or _, starting with a letter');
const label = z.string().max(L.label);
const text = z.string().max(L.text);

export const MemberStepMetricsSchema = z.object({
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

const PairMetricsSchema = z.object({
  a: id,
  b: id,
  agreement: nullable,
  kappa: nullable,
  bothWrongSame: measured,
  evalKappa: nullable.optional(),
  evalBothWrongSame: measured.optional(),
});

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

const MemberInfoSchema = z.object({
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

const BaseEvaluationSchema = z.object({ memberId: id, passAt1: measured, majAtG: measured, warmStartSteps: count.optional() });

const BasePairSchema = z.object({
  a: id,
  b: id,
  kappa: nullable,
  bothWrongSame: measured,
  passCorrelation: nullable.optional(),
  pooledMajAtG: measured.optional(),
});

const RunSummarySchema = z.object({
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
              history: z.array(MemberStepMetricsSchema.extend({ step })).max(L.steps),
              collapseStep: step.nullable(),
            }),
          )
          .max(L.members),
        pairs: z.array(PairMetricsSchema.extend({ step })).max(L.pairs * L.steps),
        ensemble: z.array(z.object({ step, majAtG: measured })).max(L.steps),
      }),
    )
    .max(L.arms),
  base: z.array(BaseEvaluationSchema).max(L.members),
  baseKappa: z.array(BasePairSchema).max(L.pairs),
  medianStepMs: measured,
  backend: label,
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

// The schemas follow events.ts: their output is a RecordedEvent, and a field added to one of the
// types but not to its schema (zod would drop it from imported files) fails the typecheck here.
type Parsed = z.output<typeof RecordedEventSchema>;
export const asRecordedEvent = (e: Parsed): RecordedEvent => e;
type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
type Out<S extends z.ZodType> = z.output<S>;
export const SCHEMAS_FOLLOW_TYPES: [
  SameKeys<MemberStepMetrics, Out<typeof MemberStepMetricsSchema>>,
  SameKeys<PairMetrics, Out<typeof PairMetricsSchema>>,
  SameKeys<MemberInfo, Out<typeof MemberInfoSchema>>,
  SameKeys<BasePair, Out<typeof BasePairSchema>>,
  SameKeys<RunSummary, Out<typeof RunSummarySchema>>,
  SameKeys<RunSummary['arms'][number], Out<typeof RunSummarySchema>['arms'][number]>,
] = [true, true, true, true, true, true];
