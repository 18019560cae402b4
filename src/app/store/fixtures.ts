/**
 * Hand-written runner events for the store tests: small enough to check every number by hand.
 * (Test data only; the app never shows it.)
 */
import type { ArmStepMetrics, MemberStepMetrics, RunnerEvent } from '../../core/experiment/events';

export function memberMetrics(over: Partial<MemberStepMetrics> = {}): MemberStepMetrics {
  return {
    reward: 0.5,
    oracleReward: 0.4,
    pseudoLabelAccuracy: 0.75,
    rewardAccuracy: 0.8,
    rewardGap: 0.1,
    ownVoteAccuracy: 0.5,
    rescueRate: 0.5,
    misleadRate: 0.25,
    sharedErrorRate: 0.2,
    labeledFraction: 1,
    majorityRatio: 0.6,
    tieRate: 0,
    entropy: 1.2,
    length: 9,
    capFraction: 0,
    malformedFraction: 0.05,
    rewardStd: 0.3,
    zeroStdFraction: 0.25,
    supervisionContainsTruth: 0.9,
    topAnswerShare: 0.2,
    loss: 0.01,
    kl: 0,
    clipFraction: 0,
    gradNorm: 0.5,
    ...over,
  };
}

export function armMetrics(armId: string, scheme: ArmStepMetrics['scheme'], members: Record<string, Partial<MemberStepMetrics>>, extra: Partial<ArmStepMetrics> = {}): ArmStepMetrics {
  const ids = Object.keys(members);
  return {
    armId,
    scheme,
    members: Object.fromEntries(ids.map((id) => [id, memberMetrics(members[id])])),
    pairs: ids.length >= 2 ? [{ a: ids[0], b: ids[1], agreement: 0.5, kappa: 0.2, bothWrongSame: 0.1 }] : [],
    ...extra,
  };
}

export function stepEvent(step: number, arms: ArmStepMetrics[], over: Partial<Extract<RunnerEvent, { type: 'step' }>> = {}): Extract<RunnerEvent, { type: 'step' }> {
  return { type: 'step', step, steps: 10, arms, samples: [], stepMs: 100, tokens: 500, ...over };
}
