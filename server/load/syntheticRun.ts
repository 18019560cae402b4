/**
 * A run's recorded events, of the real shape and size, for the load check and the tests: 'base',
 * one 'step' per RL step (every arm, every member, every metric the runner reports, pairs, and
 * the held-out figures on evaluation steps), and 'done' with the summary folded from them by the
 * runner's own fold (src/core/experiment/summary.ts). The numbers are drawn from a seeded generator
 * in the ranges the runner reports (rates as fractions of B x G rollouts, full-precision losses and
 * entropies), so the JSON is as long as a real run's. No real run's events are shipped to replay:
 * public/references holds per-step bands over seeds, not one run's events.
 */
import type { BaseEvaluation, MemberInfo, MemberStepMetrics, RunnerEvent } from '../../src/core/experiment/events';
import type { ExperimentSpec } from '../../src/core/experiment/spec';
import { emptySummary, foldEvent } from '../../src/core/experiment/summary';
import type { SeatEvent } from '../../src/room/protocol';

/** mulberry32: a small seeded generator, enough for plausible numbers (and the red team's fuzzed frames). */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticRun(spec: ExperimentSpec, seed: number): SeatEvent[] {
  const rand = generator(seed);
  const rollouts = spec.grpo.promptsPerStep * spec.grpo.groupSize;
  const rate = () => Math.round(rand() * rollouts) / rollouts;
  const prompts = () => Math.round(rand() * spec.grpo.promptsPerStep) / spec.grpo.promptsPerStep;
  const members: MemberInfo[] = spec.members.map((m) => ({
    id: m.id,
    family: m.family,
    params: 20_000 + Math.floor(rand() * 20_000),
    label: `${m.family} d${m.dModel}×${m.layers}`,
    warmStartSteps: m.warmStartSteps,
    warmStartSource: 'shipped',
    warmStartBackend: 'wasm',
    warmStartReached: true,
    warmStartBest: 0.5 + rand() * 0.1,
    warmStartLast: 0.5 + rand() * 0.1,
  }));
  const base: BaseEvaluation[] = spec.members.map((m) => ({ memberId: m.id, passAt1: 0.4 + rand() * 0.2, majAtG: 0.6 + rand() * 0.2, warmStartSteps: m.warmStartSteps }));
  const baseKappa = spec.members.length >= 2 ? [{ a: spec.members[0].id, b: spec.members[1].id, kappa: rand(), bothWrongSame: rate(), passCorrelation: rand(), pooledMajAtG: rate() }] : [];
  const events: RunnerEvent[] = [{ type: 'base', members, base, baseKappa }];
  const metrics = (scheme: string, evalStep: boolean): MemberStepMetrics => {
    const vote = scheme !== 'entropy' && scheme !== 'certainty';
    const labelled = vote && scheme !== 'oracle';
    const reward = rate();
    const oracleReward = rate();
    return {
      reward,
      oracleReward,
      pseudoLabelAccuracy: labelled ? prompts() : null,
      rewardAccuracy: vote ? rate() : null,
      rewardGap: vote ? reward - oracleReward : null,
      ownVoteAccuracy: prompts(),
      rescueRate: vote ? prompts() : null,
      misleadRate: vote ? prompts() : null,
      sharedErrorRate: vote ? prompts() : null,
      labeledFraction: 1,
      majorityRatio: 0.4 + rand() * 0.6,
      tieRate: prompts() / 4,
      entropy: 0.2 + rand(),
      length: 8 + rand() * 2,
      capFraction: 0,
      malformedFraction: rate() / 10,
      rewardStd: rand() * 0.5,
      zeroStdFraction: prompts(),
      supervisionContainsTruth: labelled ? prompts() : null,
      topAnswerShare: rate(),
      loss: (rand() - 0.5) * 0.05,
      kl: spec.grpo.beta > 0 ? rand() * 0.01 : null,
      clipFraction: rand() * 0.05,
      gradNorm: rand() * 2,
      ...(evalStep ? { evalPassAt1: rand(), evalMajAtG: rand() } : {}),
    };
  };
  for (let step = 1; step <= spec.steps; step++) {
    const evalStep = step % spec.evalEvery === 0 || step === spec.steps;
    events.push({
      type: 'step',
      step,
      steps: spec.steps,
      arms: spec.arms.map((arm) => ({
        armId: arm.id,
        scheme: arm.scheme,
        members: Object.fromEntries(arm.members.map((m) => [m, metrics(arm.scheme, evalStep)])),
        pairs:
          arm.members.length >= 2
            ? [{ a: arm.members[0], b: arm.members[1], agreement: prompts(), kappa: rand() * 2 - 1, bothWrongSame: prompts(), ...(evalStep ? { evalKappa: rand(), evalBothWrongSame: rand() / 4 } : {}) }]
            : [],
        ...(evalStep && arm.members.length >= 2 ? { ensembleMajAtG: rand() } : {}),
      })),
      samples: [],
      stepMs: 60 + rand() * 60,
      tokens: rollouts * 9 * memberCount(spec),
    });
  }
  const summary = emptySummary({ ...spec, seed }, 'wasm'); // the run's seed: a seat's summary carries its own
  for (const e of events) foldEvent(summary, e, spec);
  events.push({ type: 'done', summary });
  return events as SeatEvent[];
}

const memberCount = (spec: ExperimentSpec) => spec.arms.reduce((n, a) => n + a.members.length, 0);
