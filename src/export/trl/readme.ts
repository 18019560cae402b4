/**
 * The texts of the TRL export that depend on the experiment: README.md, launch.sh and the
 * requirements files.
 */
import type { ArmSpec, ExperimentSpec } from '../../core/experiment/spec';
import { getTask } from '../../core/tasks/index';
import { paramsFromId } from './modelIds';
import {
  DEFAULT_MAX_COMPLETION_LENGTH,
  REQUIREMENTS,
  TRL_VERSION,
  VLLM_REQUIREMENT,
  mappingRows,
  noCounterpart,
  skipReason,
} from './mapping';

interface Skipped {
  id: string;
  scheme: string;
  reason: string;
}

const SCHEME_TEXT: Record<string, string> = {
  oracle: 'rewarded by the true answer (the upper reference; the only arm that sees labels)',
  self: 'rewarded by its own majority vote (TTRL)',
  'self-soft': 'rewarded by the share of its own votes its answer has (SRT)',
  peer: "rewarded by its partner's majority vote (Co-RL)",
  ring: "rewarded by the next member's majority vote, A <- B <- C <- A (Co-RL's ring)",
  cohort: 'rewarded by the pooled votes of all other members, ties discarded',
  teacher: 'rewarded by the majority vote of a frozen copy of the teacher member',
};

export function requirementsTxt(): string {
  return (
    `# Pinned for the training script (written against TRL ${TRL_VERSION}'s GRPOTrainer API).\n` +
    '# Python 3.10-3.12 with CUDA; install torch for your CUDA first if the default wheel does not fit.\n' +
    REQUIREMENTS.join('\n') +
    '\n'
  );
}

export function vllmRequirementsTxt(): string {
  return `# Optional: generation with vLLM (train_cohort.py --use_vllm). TRL ${TRL_VERSION} supports vllm>=0.10.2,<0.12.0.\n-r requirements.txt\n${VLLM_REQUIREMENT}\n`;
}

function table(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

/** Rough GPU memory of one member process (GB): a stated estimate, not a measurement. */
export function memoryEstimateGb(paramsB: number, opts: { reference: boolean }): number {
  // bf16 weights 2 + grads 2 + AdamW moments 4-8 bytes per parameter, rounded up to 16 for fp32
  // checkpoints and allocator slack; the reference model 2 more; activations and logits of a
  // 32 x ~350-token micro-batch with a ~150k vocabulary about 5 GB; CUDA context 1 GB.
  const perParam = 16 + (opts.reference ? 2 : 0);
  return Math.ceil(paramsB * perParam + 6);
}

function memorySection(spec: ExperimentSpec, models: string[]): string {
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
      return `- arm \`${a.id}\`: each member's process also holds the frozen teacher ${a.teacher} (${modelOf(a.teacher!)}): ${tp === null ? '2 bytes per teacher parameter' : `about ${Math.ceil(2 * tp)} GB`} more, plus its sampling.`;
    });
  return `## GPU memory (a rough estimate, not measured)

Per member process, with the defaults (bf16, gradient checkpointing, micro-batches of at most 32
completions of at most ${DEFAULT_MAX_COMPLETION_LENGTH} tokens): about **16 bytes per parameter**
(weights, gradients, AdamW moments and slack)${withRef ? ' **+ 2 bytes per parameter for the reference model** (beta > 0)' : ''}
+ about 6 GB for activations, logits and the CUDA context. Halving \`--max_micro_batch\` roughly
halves the activation part. With \`--use_vllm\`, vLLM takes its \`--vllm_gpu_memory_utilization\`
share (default 0.3) of the GPU on top.

${table(['member', 'model', 'parameters (from the name)', 'estimate per process'], rows)}
${teacherLines.length ? '\n' + teacherLines.join('\n') + '\n' : ''}
Members of an arm run at the same time, one GPU each by default (\`GPUS\`, \`NPROC\` in launch.sh),
so an arm of N members wants N GPUs of that size; two small members can share one GPU
(\`GPUS=0 bash launch.sh ...\`) when both fit. Models of 7B and more need more than one GPU per member
(NPROC > 1 with DeepSpeed ZeRO, not configured here).`;
}

function armLine(a: ArmSpec): string {
  const teacher = a.scheme === 'teacher' ? ` (teacher: frozen ${a.teacher})` : '';
  const tau = a.tau > 0 ? `, tau ${a.tau}` : '';
  return `- \`${a.id}\` (${a.scheme}${tau}): ${a.members.join(', ')}, each ${SCHEME_TEXT[a.scheme]}${teacher}`;
}

export function readme(spec: ExperimentSpec, models: string[], skipped: Skipped[], presetId: string | null): string {
  const task = getTask(spec.task.id);
  const arms = spec.arms.filter((a) => !skipReason(a));
  const first = arms[0];
  const lr = spec.grpo.learningRate;
  const rows = mappingRows(spec).map((r) => [r.lab, r.value, r.trl, r.trlValue, r.note]);
  const commands = arms
    .map((a) =>
      [
        `# arm ${a.id}: ${a.members.length} process${a.members.length > 1 ? 'es' : ''}, started together`,
        ...a.members.map(
          (m, k) =>
            `CUDA_VISIBLE_DEVICES=${k} accelerate launch --num_processes 1 --main_process_port ${29500 + k} train_cohort.py --arm ${a.id} --member ${m} --run_id R1 --run_dir runs/R1 &`,
        ),
        'wait',
      ].join('\n'),
    )
    .join('\n\n');
  return `# ${presetId ? `Cohort Lab "${presetId}"` : 'A Cohort Lab experiment'}, exported for TRL

**This project was exported by Cohort Lab and has not been run where it was exported.** It is
written against TRL ${TRL_VERSION}'s API; nothing here claims a result. The lab's own results are
from its tiny models in the browser.

It trains the experiment's arms on real language models with Hugging Face TRL's \`GRPOTrainer\`,
the engine Co-RL is built on: every member of an arm is its own process (its own \`accelerate\`
world), and the members of an arm swap pseudo-labels through a shared directory.

Task: **${task.title}** at difficulty ${spec.task.difficulty} (${task.description}) Seed ${spec.seed},
${spec.steps} RL steps of ${spec.grpo.promptsPerStep} prompts x ${spec.grpo.groupSize} completions.

## Members and arms

${table(
  ['member', 'model', "lab model (not exported)"],
  spec.members.map((m, i) => [m.id, models[i], `${m.family}, width ${m.dModel}, ${m.layers} layer${m.layers > 1 ? 's' : ''}`]),
)}

${arms.map(armLine).join('\n')}
${skipped.length ? `\nNot exported:\n${skipped.map((s) => `- \`${s.id}\` (${s.scheme}): ${s.reason}.`).join('\n')}\n` : ''}
## Run it

\`\`\`sh
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt          # or requirements-vllm.txt for --use_vllm
bash launch.sh ${first.id}                     # one arm; logs and outputs in runs/<run id>/
\`\`\`

\`launch.sh ARM\` starts every member of the arm at once, one GPU each (\`GPUS\`, \`NPROC\`,
\`RUN_ID\`, \`RUN_DIR\`, \`PORT_BASE\` at its top) and stops the others when one fails. Run the arms
one after another, or side by side with different \`GPUS\`, \`RUN_DIR\` and \`PORT_BASE\`. The same,
by hand (all members of an arm with the same \`--run_id\` and \`--run_dir\`):

\`\`\`sh
${commands}
\`\`\`

Flags of \`train_cohort.py\` (\`--help\`): \`--dataset lab|gsm8k\` (the lab's problems, or GSM8K
downloaded by \`datasets\` when training starts, answer = the number after the last '>'),
\`--prompt_style instruct|lab\`, \`--learning_rate\`, \`--max_completion_length\`, \`--max_steps\`,
\`--use_vllm\`, \`--max_micro_batch\`, \`--report_to\`, \`--grpo KEY=VALUE\` for any other
\`GRPOConfig\` field, the rendezvous timeouts, and \`--dry_run\` (print the \`GRPOConfig\`
arguments and the first training row, then exit; needs no GPU, torch or TRL).

## Before you train

- **Learning rate.** The spec's ${lr} was tuned for the lab's tiny models.${lr > 1e-5 ? ` For a model of hundreds of millions of parameters that is far too high (Co-RL trains at 1e-6): pass \`--learning_rate 1e-6\`.` : ''}
- **Prompts.** The lab's models read \`8+3+9=\` and write \`8,1>0\`. An instruct model gets a
  sentence asking for the same answer after a final '>' (data/*.jsonl, \`question\`);
  \`--prompt_style lab\` feeds the raw lab prompt instead (for a base model).
- **Answer extraction** (cohort_rewards.py \`extract_answer\`, the lab's rule): a completion cut off
  at the length cap casts no vote; otherwise the answer is the text after the last '>' (surrounding
  whitespace and one trailing period dropped) and must be a well-formed answer of the task, or it
  casts no vote and earns nothing.

## What maps to what

${table(['lab (spec)', 'value', 'TRL GRPOConfig', 'value', 'note'], rows)}

The reward step is TRL's \`GRPOTrainer._calculate_rewards(inputs, prompts, completions,
completion_ids_list)\`, overridden (the method exists with this signature in TRL 0.19 to 1.x; the
export was checked against v${TRL_VERSION}). Per RL step the script extracts every completion's
answer, gathers them over the member's processes, votes per prompt (plurality; a tie broken by the
lab's seeded stream \`ties/<arm>/<member>/<step>\`, so the same answers give the lab's labels), then:

- \`oracle\`, \`self\`, \`self-soft\`: rewards from the truth or its own votes; no exchange;
- \`peer\`, \`ring\`, \`cohort\`: the main process writes its labels and ballots to
  \`<run_dir>/rendezvous/<arm>/step-NNNNNN.from-A.to-B.json\` (written to a temporary name, then
  renamed), waits for the other members' files of the same step, checks that they labeled the same
  prompt batch (a key of the step's rows), and broadcasts them to its ranks; peer takes the
  partner's labels, ring the next member's, cohort the plurality of the others' pooled ballots with
  ties discarded;
- \`teacher\`: the frozen teacher model samples G completions per prompt on the main process and
  its plurality is the label.

A member that is gone is reported instead of waited for: each process keeps a heartbeat file fresh
and marks itself failed or done; a waiting member stops with a message naming the peer when it
failed, finished, stopped beating (\`--heartbeat_stale_after\`, 300 s) or its process no longer
exists, and after \`--rendezvous_timeout\` (3600 s) in any case. cohort_rewards.py is the lab's
vote and reward logic in plain Python; the lab tests it against its TypeScript engine.

Logged per step besides TRL's own metrics: \`cohort/pseudo_label_accuracy\`,
\`cohort/labeled_fraction\`, \`cohort/own_vote_accuracy\`, \`cohort/own_tie_rate\`,
\`cohort/own_majority_ratio\`, \`cohort/parseable_fraction\`, \`cohort/oracle_reward\` (the truth is
used for these measurements only, never for a label-free reward), \`cohort/rendezvous_wait_s\`;
at evaluation the reward is held-out pass@1 and \`cohort/maj_at_g\` maj@G.

## No counterpart in TRL

${noCounterpart(spec).map((s) => `- ${s}`).join('\n')}

${memorySection(spec, models)}

## Files

- \`train_cohort.py\`: the trainer (a \`GRPOTrainer\` subclass) and its command line
- \`cohort_rewards.py\`: votes, labels, rewards and answer extraction (standard library only)
- \`rendezvous.py\`: the shared-directory exchange, heartbeats and timeouts (standard library only)
- \`cohort_plan.py\`: config.json to \`GRPOConfig\` arguments and the batch split
- \`config.json\`: members, model ids, arms and the mapped settings; \`spec.json\`: the lab's spec
- \`data/rl.jsonl\`, \`data/heldout.jsonl\`, \`data/labeled.jsonl\`: the lab's split (RL pool,
  held-out, labeled pool); \`data/schedule.json\`: the RL pool rows of every step, in the lab's order
- \`launch.sh\`, \`requirements.txt\`, \`requirements-vllm.txt\`
`;
}
