/**
 * The README's GPU memory section: a stated estimate from the dtype the export loads models in
 * (float32, set explicitly in model_init_kwargs; cohort_plan.py MODEL_DTYPE), not a measurement.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { paramsFromId } from './modelIds';
import { DEFAULT_MAX_COMPLETION_LENGTH, MODEL_DTYPE, TRL_VERSION } from './mapping';

/** Bytes per parameter of a float32 model: weights 4 + gradients 4 + AdamW's two moments 8. */
export const TRAINED_BYTES_PER_PARAM = 16;
/** Bytes per parameter of a frozen float32 copy (the reference model when beta > 0, the teacher). */
export const FROZEN_BYTES_PER_PARAM = 4;

/** Rough GPU memory of one member process (GB): a stated estimate, not a measurement. */
export function memoryEstimateGb(paramsB: number, opts: { reference: boolean }): number {
  // Activations and logits of a 32 x ~350-token micro-batch with a ~150k vocabulary in bf16
  // autocast, about 5 GB; the CUDA context about 1 GB.
  const perParam = TRAINED_BYTES_PER_PARAM + (opts.reference ? FROZEN_BYTES_PER_PARAM : 0);
  return Math.ceil(paramsB * perParam + 6);
}

export function memorySection(spec: ExperimentSpec, models: string[], table: (h: string[], rows: string[][]) => string): string {
  const withRef = spec.grpo.beta > 0;
  const modelOf = (id: string) => models[spec.members.findIndex((m) => m.id === id)];
  const rows = spec.members.map((m, i) => {
    const p = paramsFromId(models[i]);
    return [m.id, models[i], p === null ? '?' : `${p} B`, p === null ? 'size not in the name: use the formula' : `about ${memoryEstimateGb(p, { reference: withRef })} GB`];
  });
  const teacherLines = spec.arms
    .filter((a) => a.scheme === 'teacher' && a.teacher)
    .map((a) => {
      const tp = paramsFromId(modelOf(a.teacher!));
      const more = tp === null ? `${FROZEN_BYTES_PER_PARAM} bytes per teacher parameter` : `about ${Math.ceil(FROZEN_BYTES_PER_PARAM * tp)} GB`;
      return `- arm \`${a.id}\`: the main process of each member also holds the frozen teacher ${a.teacher} (${modelOf(a.teacher!)}, ${MODEL_DTYPE}): ${more} more, plus its sampling.`;
    });
  return `## GPU memory (a rough estimate, not measured)

The export loads every model in **${MODEL_DTYPE}** (\`model_init_kwargs\` dtype ${MODEL_DTYPE}, set
explicitly: TRL ${TRL_VERSION} would otherwise load the checkpoint's own dtype, bf16 for most instruct
models, in which an update of ~1e-6 rounds away), and computes in bf16 autocast (GRPOConfig \`bf16\`).
Per member process, with GRPOConfig's gradient checkpointing (on by default) and micro-batches of at most 32 completions of at
most ${DEFAULT_MAX_COMPLETION_LENGTH} tokens: **${TRAINED_BYTES_PER_PARAM} bytes per parameter** (weights 4, gradients 4,
AdamW moments 8)${withRef ? ` **+ ${FROZEN_BYTES_PER_PARAM} bytes per parameter for the reference model** (beta > 0)` : ''}
+ about 6 GB for activations, logits and the CUDA context. Halving \`--max_micro_batch\` roughly
halves the activation part; \`--grpo 'model_init_kwargs={"dtype":"bfloat16"}'\` halves the rest, at
the price above. With \`--use_vllm\`, vLLM takes its \`--vllm_gpu_memory_utilization\` share
(default 0.3) of the GPU on top. With NPROC > 1 every process holds a full copy (plain data parallel).

${table(['member', 'model', 'parameters (from the name)', 'estimate per process'], rows)}
${teacherLines.length ? '\n' + teacherLines.join('\n') + '\n' : ''}
Members of an arm run at the same time, one GPU each by default (\`GPUS\`, \`NPROC\` in launch.sh),
so an arm of N members wants N GPUs of that size; two small members can share one GPU
(\`GPUS=0 bash launch.sh ...\`) when both fit. Models of 7B and more need more than one GPU per member
with the weights sharded (DeepSpeed ZeRO or FSDP, not configured here).`;
}
