/**
 * One RL step of a member part (memberParts.ts): the cohort step (step.ts) for one member of a
 * peer arm whose partner trains in another browser, top-down:
 *
 *   1. sample    the member samples n_vote completions per prompt (its own stream, as in any run)
 *   2. exchange  its voted answers go to the partner; the partner's come back (checked)
 *   3. vote      the partner's plurality, recomputed here with the partner's ballot stream, is the
 *                label of this member's reward (Co-RL's peer reward); its own plurality, for the
 *                measures
 *   4. update    advantages and one GRPO update of this member's one-model stack
 *   5. measure   this member's metrics, and the pair's (from both pluralities)
 *
 * Held-out evaluations exchange the same way (exchangeEvaluation): the partner's G answers per
 * problem, scored here with its evaluation stream (evaluate.ts scoreHeldOut).
 */
import type { Rng } from '../random';
import type { Problem } from '../tasks/types';
import { promptTokens } from '../tasks/index';
import { sampleStack, trainedSubset } from '../rollout';
import { oracleRewards } from '../rewards/schemes';
import { firstNonFinite } from '../grpo/nonfinite';
import { scoreHeldOut, type HeldOutScore } from '../evaluate';
import { inspectorMember, memberAdvantages, memberRewards, memberVotes, samplingRng, voteCount } from './arm';
import { measureMember, measurePair } from './measure';
import { faulty, rolloutOptions, updateStack, type CohortStepContext, type CohortStepResult } from './step';
import { slotId, type TrainingStack } from './stacks';
import { checkedAnswers, perPrompt, type MemberPlan } from './memberParts';

export interface MemberStepContext extends CohortStepContext {
  plan: MemberPlan;
  /** True once the run was disposed (the exchange may resolve after that): nothing more is computed. */
  stopped: () => boolean;
}

/** The step of a member part (null: the run was disposed while it waited for the partner). */
export async function memberStep(stack: TrainingStack, ctx: MemberStepContext): Promise<CohortStepResult | null> {
  const { plan, spec } = ctx;
  const { arm, index: i, memberId } = plan;
  const B = ctx.problems.length;
  const G = spec.grpo.groupSize;
  const nVote = voteCount(spec.grpo);
  const sampleSeed = stack.slots[0].sampleSeed;

  // 1. Sample, with the member's own stream (as in a one-browser run of the pair).
  const prompts = ctx.problems.map((p) => promptTokens(ctx.task, ctx.difficulty, p.prompt));
  const rng = samplingRng(ctx.root, memberId, sampleSeed, ctx.step);
  const [voted] = await sampleStack(stack.models, prompts, ctx.task, ctx.difficulty, rolloutOptions(spec, ctx.maxNewTokens, [rng]));
  const own = { voted, trained: trainedSubset(voted, G) };

  // 2. Exchange the voted answers (untrusted in return: checked before they are read).
  const reply = await plan.exchange(ctx.step, 'train', perPrompt(voted.answers, nVote));
  if (ctx.stopped()) return null;
  const partnerVoted = checkedAnswers(reply, B, nVote, `the answers of member ${plan.partnerId} (the partner) at step ${ctx.step}`).flat();

  // 3. Votes and the reward: member j's votes are its answers with its ballot stream, wherever counted.
  const votedOf = (j: number) => (j === i ? voted.answers : partnerVoted);
  const rewarded = memberRewards(arm, i, own, votedOf, ctx, null);
  const oracle = oracleRewards(own.trained.answers, ctx.problems.map((p) => p.answer));
  const votes = arm.members.map((id, j) => memberVotes(arm, id, votedOf(j), ctx));

  // 4. Advantages and the update of this member's copy.
  const { advantages, stats } = memberAdvantages(rewarded, ctx);
  const [update] = await updateStack(stack, faulty(stack, ctx.fault), [own.trained], [advantages], ctx);

  // 5. Measure this member, and the pair from both pluralities.
  const truths = ctx.problems.map((p) => p.answer);
  const found = firstNonFinite(update);
  const metrics = measureMember({ scheme: arm.scheme, rollout: own.trained, rewards: rewarded, oracle, ownVotes: votes[i], truths, stats, update });
  const b = ctx.step % B;
  const sum = (xs: Int32Array) => xs.reduce((a, x) => a + x, 0);
  return {
    arms: [{ armId: arm.id, scheme: arm.scheme, members: { [memberId]: metrics }, pairs: [measurePair(arm.members[0], arm.members[1], votes[0], votes[1], truths)] }],
    samples: [{
      armId: arm.id,
      prompt: ctx.problems[b].prompt,
      truth: ctx.problems[b].answer,
      members: [inspectorMember(arm, memberId, own.trained, rewarded, oracle, votes[i], ctx, b)],
    }],
    tokens: sum(voted.lengths),
    trained: { rollouts: own.trained.lengths.length, tokens: sum(own.trained.lengths) },
    nonfinite: found ? [{ ...found, armId: arm.id, memberId }] : [],
  };
}

/**
 * A held-out evaluation's exchange: this member's G answers per problem go to the partner, whose
 * come back (checked) and are scored here with the partner's evaluation stream `partnerRng`
 * (the stream its own browser scores them with). Null: the run was disposed meanwhile.
 */
export async function exchangeEvaluation(
  plan: MemberPlan,
  step: number,
  own: HeldOutScore,
  problems: Problem[],
  groupSize: number,
  partnerRng: Rng,
  stopped: () => boolean,
): Promise<HeldOutScore | null> {
  const reply = await plan.exchange(step, 'eval', own.answers);
  if (stopped()) return null;
  const what = `the held-out answers of member ${plan.partnerId} (the partner) ${step === 0 ? 'at the base' : `at step ${step}`}`;
  return scoreHeldOut(checkedAnswers(reply, problems.length, groupSize, what), problems, partnerRng);
}

/** The key of the partner's evaluation among the arm's (runner.ts attachEvaluation reads it). */
export const partnerSlot = (plan: MemberPlan) => slotId(plan.arm.id, plan.partnerId);
