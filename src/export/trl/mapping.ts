/**
 * The experiment spec mapped onto TRL's GRPOConfig (TRL 0.26.2), with the reason for every choice.
 * One table feeds config.json (what the training script uses) and the README (what users read).
 */
import type { ArmSpec, ExperimentSpec } from '../../core/experiment/spec';
import { resolveTask } from '../../core/tasks/index';

/** The TRL release whose API the training script targets (checked against its v0.26.2 sources). */
export const TRL_VERSION = '0.26.2';

/**
 * Pinned requirements: the versions `npm run trl-check` installed and ran the export with (on CPU,
 * Python 3.11; docs/BENCHMARKS.md). TRL 0.26.2 asks for accelerate>=1.4.0, datasets>=3.0.0,
 * transformers>=4.56.1 and (optional) vllm>=0.10.2,<0.12.0. The other pins follow Co-RL's
 * published freeze (DrStranded/Co-RL llm/requirements.txt: torch 2.9.0, transformers 4.57.0,
 * accelerate 1.13.0, datasets 4.8.4, vllm 0.11.2), which ran a TRL fork on the same GRPOTrainer
 * API, except transformers 4.57.1: PyPI has yanked 4.57.0 ("Error in the setup causing
 * installation issues"), and pip warns on it.
 */
export const REQUIREMENTS = [
  `trl==${TRL_VERSION}`,
  'transformers==4.57.1',
  'accelerate==1.13.0',
  'datasets==4.8.4',
  'torch==2.9.0',
];
export const VLLM_REQUIREMENT = 'vllm==0.11.2';

/**
 * Member k (0-based) samples from seed + SAMPLING_SEED_STRIDE x (k + 1), plus its process index
 * (TRL's device-specific seeding): distinct for every (member, process) while a member has fewer
 * than this many processes. TRL itself seeds every member alike (grpo_trainer.py:609, v0.26.2).
 */
export const SAMPLING_SEED_STRIDE = 1000;

export function samplingSeed(seed: number, memberIndex: number): number {
  return seed + SAMPLING_SEED_STRIDE * (memberIndex + 1);
}

/** The dtype the export loads models in (cohort_plan.py MODEL_DTYPE; TRL 0.26.2's default is "auto"). */
export const MODEL_DTYPE = 'float32';

/** A learning rate for models of hundreds of millions of parameters and more (Co-RL trains at 1e-6). */
export const SAFE_LLM_LEARNING_RATE = 1e-6;

/** Default completion budget for an instruct model (tokens), where the lab counts characters. */
export const DEFAULT_MAX_COMPLETION_LENGTH = 256;

export const EXPORTED_SCHEMES = ['oracle', 'self', 'self-soft', 'peer', 'ring', 'cohort', 'teacher'] as const;

/** Why an arm cannot be exported, or null. */
export function skipReason(arm: ArmSpec): string | null {
  if (arm.scheme === 'entropy' || arm.scheme === 'certainty') {
    return (
      `intrinsic reward (${arm.scheme === 'entropy' ? "RENT's token entropy" : "Intuitor's self-certainty"}): it needs the policy's ` +
      "per-token distributions at reward time, which TRL's reward step does not receive; not exported"
    );
  }
  return null;
}

/** The lab's loss normalisation as a TRL loss_type (see `mappingRows` for why bnpo -> dapo). */
export function lossType(n: ExperimentSpec['grpo']['lossNormalisation']): string {
  return n === 'bnpo' ? 'dapo' : n;
}

/** GRPOConfig values from the spec (config.json "grpo"); the batch split is per world size, in cohort_plan.py. */
export function grpoConfig(spec: ExperimentSpec): Record<string, string | number | boolean> {
  const g = spec.grpo;
  const mu = g.updatesPerBatch;
  return {
    num_generations: g.groupSize,
    num_generations_eval: g.groupSize,
    learning_rate: g.learningRate,
    lr_scheduler_type: 'constant',
    warmup_ratio: 0,
    weight_decay: 0,
    beta: g.beta,
    epsilon: g.clipEps,
    loss_type: lossType(g.lossNormalisation),
    scale_rewards: g.advantageScale,
    num_iterations: mu,
    max_grad_norm: g.maxGradNorm,
    temperature: g.temperature,
    top_p: 1,
    max_completion_length: DEFAULT_MAX_COMPLETION_LENGTH,
    max_steps: spec.steps * mu,
    eval_strategy: 'steps',
    eval_steps: spec.evalEvery * mu,
    eval_on_start: true,
    logging_steps: 1,
    seed: spec.seed,
    shuffle_dataset: false,
    save_strategy: 'no',
    report_to: 'none',
  };
}

export interface MappingRow {
  lab: string;
  value: string;
  trl: string;
  trlValue: string;
  note: string;
}

const num = (x: number) => String(x);

/** The README's table: every spec setting that reaches TRL, with its value on both sides. */
export function mappingRows(spec: ExperimentSpec): MappingRow[] {
  const g = spec.grpo;
  const task = resolveTask(spec.task);
  const labL = g.maxNewTokens > 0 ? g.maxNewTokens : task.maxCompletionLength(spec.task.difficulty) + 2;
  const mu = g.updatesPerBatch;
  const taus = [...new Set(spec.arms.map((a) => a.tau))];
  return [
    { lab: 'grpo.groupSize (G)', value: num(g.groupSize), trl: 'num_generations', trlValue: num(g.groupSize), note: 'completions per prompt; the vote is over them' },
    {
      lab: 'grpo.promptsPerStep (B)',
      value: num(g.promptsPerStep),
      trl: 'per_device_train_batch_size x processes x gradient_accumulation_steps',
      trlValue: `${g.promptsPerStep * g.groupSize} completions`,
      note: 'B x G per RL step, split by cohort_plan.py for the world size (--max_micro_batch); steps_per_generation = gradient_accumulation_steps, so one RL step is one generation batch and one optimizer step per GRPO iteration',
    },
    { lab: 'grpo.learningRate', value: num(g.learningRate), trl: 'learning_rate', trlValue: num(g.learningRate), note: 'constant schedule (lr_scheduler_type constant, no warm-up), AdamW without weight decay; see "Before you train"' },
    { lab: 'grpo.beta', value: num(g.beta), trl: 'beta', trlValue: num(g.beta), note: 'KL weight (k3 estimator) towards the starting model; 0 loads no reference model' },
    { lab: 'grpo.clipEps', value: num(g.clipEps), trl: 'epsilon', trlValue: num(g.clipEps), note: 'PPO clip range' },
    { lab: 'grpo.advantageScale', value: g.advantageScale, trl: 'scale_rewards', trlValue: g.advantageScale, note: 'the lab matches TRL: unbiased std, eps 1e-4' },
    {
      lab: 'grpo.lossNormalisation',
      value: g.lossNormalisation,
      trl: 'loss_type',
      trlValue: lossType(g.lossNormalisation),
      note:
        "grpo and dr_grpo keep their names; the lab's bnpo (1 / all completion tokens of the step) is TRL's dapo, because TRL's bnpo normalises per micro-batch" +
        (g.lossNormalisation === 'dr_grpo'
          ? `. dr_grpo's divisor differs: TRL divides by completions x max_completion_length (${DEFAULT_MAX_COMPLETION_LENGTH} tokens, a fixed number, grpo_trainer.py:2233), the lab by G x its own cap (${labL} characters), so the loss, and in effect the learning rate, is scaled by ${labL}/${DEFAULT_MAX_COMPLETION_LENGTH}; --max_completion_length changes it`
          : ''),
    },
    { lab: 'grpo.updatesPerBatch', value: num(mu), trl: 'num_iterations', trlValue: num(mu), note: 'GRPO iterations per generation batch (mu)' },
    { lab: 'grpo.maxGradNorm', value: num(g.maxGradNorm), trl: 'max_grad_norm', trlValue: num(g.maxGradNorm), note: '0 turns clipping off in both' },
    { lab: 'grpo.temperature', value: num(g.temperature), trl: 'temperature', trlValue: num(g.temperature), note: 'top_p 1 and no top_k: the full distribution, as in the lab' },
    {
      lab: 'grpo.maxNewTokens',
      value: `${g.maxNewTokens} (cap ${labL} characters)`,
      trl: 'max_completion_length',
      trlValue: num(DEFAULT_MAX_COMPLETION_LENGTH),
      note: "the lab counts characters of its 18-symbol vocabulary; an instruct model's tokens need room: --max_completion_length. A completion cut at the cap casts no vote in both",
    },
    { lab: 'steps', value: num(spec.steps), trl: 'max_steps', trlValue: num(spec.steps * mu), note: 'optimizer steps = RL steps x num_iterations' },
    { lab: 'evalEvery', value: num(spec.evalEvery), trl: 'eval_steps', trlValue: num(spec.evalEvery * mu), note: 'held-out pass@1 (eval reward) and cohort/maj_at_g; eval_on_start as the lab evaluates the base' },
    {
      lab: 'seed',
      value: num(spec.seed),
      trl: 'seed',
      trlValue: num(spec.seed),
      note: "shared by every member: it orders the data (TRL's RepeatSampler), and the tie-breaking streams use the lab's generator with it",
    },
    {
      lab: 'members (their sampling streams)',
      value: spec.members.map((m) => m.id).join(', '),
      trl: 'set_seed(sampling_seed, device_specific=True) after TRL\'s own',
      trlValue: spec.members.map((m, i) => `${m.id}: ${samplingSeed(spec.seed, i)}`).join(', '),
      note: `config.json sampling_seed = seed + ${SAMPLING_SEED_STRIDE} x member number, plus the process index: no two members (or processes) draw the same samples; TRL alone would seed every member with seed`,
    },
    {
      lab: '(the lab trains in float32)',
      value: 'float32',
      trl: 'model_init_kwargs',
      trlValue: `dtype ${MODEL_DTYPE}; device_map None with more than one process`,
      note: "float32 weights with bf16 autocast (GRPOConfig bf16): TRL 0.26.2 would load the checkpoint's dtype (bf16), where a 1e-6 step rounds away; --grpo 'model_init_kwargs={\"dtype\":\"bfloat16\"}' halves the weights' memory",
    },
    { lab: 'arms[].tau', value: taus.join(', '), trl: '(cohort_rewards.py)', trlValue: 'per arm in config.json', note: 'a prompt whose winning share is below tau is unlabeled: reward 0' },
    {
      lab: 'task, data.rlPool, data.heldOut',
      value: `${spec.task.id} (difficulty ${spec.task.difficulty}), ${spec.data.rlPool}, ${spec.data.heldOut}`,
      trl: 'train_dataset, eval_dataset',
      trlValue: 'data/*.jsonl',
      note: "the lab's split from the seed; the training rows are the lab's prompts of every step in order (shuffle_dataset false)",
    },
  ];
}

/** What the spec holds that TRL has no place for, as README bullets. */
export function noCounterpart(spec: ExperimentSpec): string[] {
  const out = [
    "**The tiny models themselves** (members' family, width, layers, heads, window): each member is a Hugging Face model id instead; the lab's character-level transformers, GRUs and MLPs are not exported.",
    "**The warm start** (warmStart.*, members' warmStartSteps, warmStartTarget, warmStartExamples, data.labeledPool): an instruct model is the starting point. data/labeled.jsonl holds the lab's labeled pool with its target completions, for a supervised warm start of your own; the script does not use it.",
    `**Per-member seeds** (initSeed, dataSeed, sampleSeed): every member starts from its model's published weights, so two members given the same model id are the same model at step 0 and differ only by their sampling seeds (config.json \`sampling_seed\` = seed + ${SAMPLING_SEED_STRIDE} x member number, plus the process index), where the lab's would also differ by initialisation and warm-start data. For peers that really differ, give them different models or checkpoints.`,
    '**collapseDelta and the lab\'s derived panels** (collapse step, kappa, rescue and mislead rates): the script logs the raw series (cohort/* metrics) they are computed from.',
  ];
  const n = spec.grpo.voteSize ?? 0;
  if (n > spec.grpo.groupSize) {
    out.push(
      `**grpo.voteSize = ${n}** (n_vote > G, TTRL's 64-vote/32-train split): TRL trains on every completion it samples (num_generations), and its reward step sees only those, so the export votes over the G = ${spec.grpo.groupSize} trained completions.`,
    );
  } else {
    out.push('**grpo.voteSize** (n_vote > G): not set here; TRL could not do it anyway, since it trains on every completion it samples and its reward step sees only those.');
  }
  return out;
}
