/**
 * The texts of the TRL export that depend on the experiment: README.md and the requirements files
 * (launch.sh is launch.ts; the memory section memory.ts).
 */
import type { ArmSpec, ExperimentSpec } from '../../core/experiment/spec';
import { resolveTask } from '../../core/tasks/index';
import { memorySection } from './memory';
import { TRL_CPU_RUN } from './cpuRun';
import type { TrlCpuRun } from './cpuRunType';
import { ACCELERATE_CONFIGS } from './launch';
import { sharedModelWarnings } from './modelIds';
import {
  DEFAULT_MAX_COMPLETION_LENGTH,
  REQUIREMENTS,
  SAFE_LLM_LEARNING_RATE,
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
  'self-soft': "rewarded by the share of its own votes its answer has (the lab's soft variant of self-reward; SRT's reward is the hard vote)",
  peer: "rewarded by its partner's majority vote (Co-RL)",
  ring: "rewarded by the next member's majority vote, A <- B <- C <- A (Co-RL's ring)",
  cohort: 'rewarded by the pooled votes of all other members, ties discarded',
  teacher: 'rewarded by the majority vote of a frozen copy of the teacher member',
};

/**
 * A text a user wrote (a task's title or description), as Markdown that renders as that text and
 * nothing else: line breaks and control characters become spaces (no heading, list or fence can
 * start a line), and every ASCII punctuation mark Markdown could read is backslash-escaped
 * (CommonMark 2.4), so no code span, link, emphasis, HTML or entity comes of it.
 */
export function markdownText(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what it replaces
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>~&"'=:;,$%@^?/]/g, (c) => `\\${c}`);
}

export function requirementsTxt(): string {
  return (
    `# Pinned: the versions the lab ran this project with (npm run trl-check: TRL ${TRL_VERSION} on CPU,\n` +
    '# Linux x86_64, Python 3.11, tiny models); GPUs remain unmeasured. On Linux the default torch wheel is\n' +
    '# a CUDA build (several GB of nvidia packages; it runs on CPU too): install torch for your CUDA first if it does not fit.\n' +
    REQUIREMENTS.join('\n') +
    '\n'
  );
}

export function vllmRequirementsTxt(): string {
  return `# Optional: generation with vLLM (train_cohort.py --use_vllm). TRL ${TRL_VERSION} supports vllm>=0.10.2,<0.12.0.\n-r requirements.txt\n${VLLM_REQUIREMENT}\n`;
}

/** 1e-6 rather than 0.000001. */
const sci = (x: number) => (x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential() : String(x));

export function table(header: string[], rows: string[][]): string {
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(esc).join(' | ')} |`)].join('\n');
}

function armLine(a: ArmSpec): string {
  const teacher = a.scheme === 'teacher' ? ` (teacher: frozen ${a.teacher})` : '';
  const tau = a.tau > 0 ? `, tau ${a.tau}` : '';
  return `- \`${a.id}\` (${a.scheme}${tau}): ${a.members.join(', ')}, each ${SCHEME_TEXT[a.scheme]}${teacher}`;
}

/** What the CPU run gave: the versions, the arms over seeds and the lab's verdicts, its time. */
export function cpuRunSection(r: TrlCpuRun): string {
  const arms = r.arms.map((a) => `${a.arm} ${a.start} -> ${a.end}`).join(', ');
  const claims = r.claims.map((c) => `- ${c.id} ${c.text}: ${c.mean}, **${c.verdict.toLowerCase()}** (Holm over the ${r.claims.length} claims: ${c.holm.toLowerCase()})`).join('\n');
  const install = r.installMinutes ? `, ${r.installMinutes} min of it installing the packages (${r.installGiB} GiB)` : '';
  return `What ran, exactly (${r.date}): ${r.versions}; Python ${r.python}; torch the PyPI wheel (a CUDA
build, run on CPU); a ${r.machine}. First the stand-in TRL of the lab's tests was compared with the
installed TRL's classes (names, signatures, the reward-function call, GRPOConfig's fields): the same. The experiment's three arms (oracle, self, peer), ${r.steps} RL steps
each (the spec's), on seeds ${r.seeds}. Held-out pass@1 (scored as the lab scores it), mean over the seeds, start -> end:
${arms}. The lab's claims, each a per-seed paired difference with its 95% interval (shown: the
interval lies above 0; not shown: it contains 0; contradicted: below 0):

${claims}

One RL step took ${r.secondsPerStep} s per member process on one CPU thread (evaluations included), on a
machine shared with other work; the lab's whole check (install, export, tiny models, ${r.wholeRunSeeds} seeds of
three arms) took ${r.wholeRunMinutes} min${install}. These are models of ${r.parameters.toLocaleString('en-US')} parameters:
they show that this code runs under TRL and what the arms do at that scale, not what your models will do.`;
}

/** What the lab ran on this export before handing it over, and what only a GPU run can show. */
function checksSection(): string {
  return `## What has run, on what, and what only a GPU run can show

**Run for real, on CPU** (the lab's \`npm run trl-check\`, on a 2-core Linux x86_64 machine without a
GPU, Python 3.11, the versions of requirements.txt): this code, exported from the lab's
\`peers-learn\` preset, with a tiny GPT-2 per member (2 layers, width 32, a character tokenizer
over the lab's 18 symbols, built offline and warm-started on data/labeled.jsonl), each given as a
local folder (\`--model A=/path/to/A\`), launch.sh starting both members of an arm as separate
processes (\`--grpo use_cpu=true --grpo bf16=false\`), the peer arm's members exchanging labels
through the rendezvous; \`log_history.json\` in each member's output folder holds what TRL logged.
That run found, and this code fixes, an evaluation at step 0 that stopped with an AttributeError
(\`current_gradient_accumulation_steps\`, set by transformers only inside the training loop).

${cpuRunSection(TRL_CPU_RUN)}

The lab's own tests also ran on the code that wrote this project (without a GPU; TRL stood in for):

- every .py compiles (\`python3 -m py_compile\`) and launch.sh parses (\`bash -n\`);
- cohort_rewards.py gives the lab's labels, votes, rewards and extracted answers on fixtures made by
  the lab's TypeScript engine;
- rendezvous.py (exchange, timeouts, gone peers) and the relay between a member's processes, with
  threads and processes on one machine; cohort_plan.py (batch split, seeds, \`model_init_kwargs\`,
  \`ddp_timeout\`);
- train_cohort.py's own logic against stand-ins of TRL, accelerate and transformers: each member
  re-seeded after TRL's \`set_seed\`, ranks > 0 waiting on a file and never in a collective, the
  teacher's generation settings, the final evaluation, the wiring of \`main\`; and \`--dry_run\`;
- launch.sh with a stand-in \`accelerate\`: members in their own process groups, all stopped when
  one fails, on Ctrl-C and at exit; \`--config_file\` passed.

Not run: any GPU (GPUs remain unmeasured: no CUDA, bf16, NCCL or vLLM run), any model from the hub
(no model was downloaded), the instruct prompts, \`--dataset gsm8k\`, NPROC > 1, and the ring,
cohort, self-soft and teacher arms with TRL itself. Only a run on GPUs can show that models load and
train with NPROC > 1 (\`device_map=None\`, NCCL); that members of one model really sample
differently (compare their logged completions and \`cohort/own_*\` series); that accelerate uses
the shipped config on your machine; the memory and speed there; and any result on real models.`;
}

export function readme(spec: ExperimentSpec, models: string[], skipped: Skipped[], presetId: string | null): string {
  const task = resolveTask(spec.task);
  const arms = spec.arms.filter((a) => !skipReason(a));
  const first = arms[0];
  const lr = spec.grpo.learningRate;
  // The spec's rate suits the lab's tiny models; a real LLM needs ~1e-6 (Co-RL's), so the first
  // command a user copies must carry it.
  const lrFlag = lr > SAFE_LLM_LEARNING_RATE * 10 ? ` --learning_rate ${sci(SAFE_LLM_LEARNING_RATE)}` : '';
  const shared = sharedModelWarnings(spec.members.map((m) => m.id), models);
  const rows = mappingRows(spec).map((r) => [r.lab, r.value, r.trl, r.trlValue, r.note]);
  const commands = arms
    .map((a) =>
      [
        `# arm ${a.id}: ${a.members.length} process${a.members.length > 1 ? 'es' : ''}, started together`,
        ...a.members.map(
          (m, k) =>
            `CUDA_VISIBLE_DEVICES=${k} accelerate launch --config_file ${ACCELERATE_CONFIGS.one} --num_processes 1 --main_process_port ${29500 + k} train_cohort.py --arm ${a.id} --member ${m} --run_id R1 --run_dir runs/R1${lrFlag} &`,
        ),
        'wait',
      ].join('\n'),
    )
    .join('\n\n');
  return `# ${presetId ? `Cohort Lab "${presetId}"` : 'A Cohort Lab experiment'}, exported for TRL

**This project was exported by Cohort Lab.** It uses TRL ${TRL_VERSION}'s public API and has run
with it for real on CPU, with tiny models ("What has run, on what" below); it has not been run on a
GPU, and nothing here claims a result for your models. The lab's own results are from its tiny
models in the browser and, for this code on CPU, from that run.

It trains the experiment's arms on real language models with Hugging Face TRL's \`GRPOTrainer\`,
the engine Co-RL is built on: every member of an arm is its own process (its own \`accelerate\`
world), and the members of an arm swap pseudo-labels through a shared directory.

Task: **${markdownText(task.title)}** at difficulty ${spec.task.difficulty} (${markdownText(task.description)}) Seed ${spec.seed},
${spec.steps} RL steps of ${spec.grpo.promptsPerStep} prompts x ${spec.grpo.groupSize} completions.

## Members and arms

${table(
  ['member', 'model', "lab model (not exported)"],
  spec.members.map((m, i) => [m.id, models[i], `${m.family}, width ${m.dModel}, ${m.layers} layer${m.layers > 1 ? 's' : ''}`]),
)}

Each member samples from its own seed (\`sampling_seed\` in config.json, plus its process index).${shared.length ? `\n\n${shared.map((w) => `**Note:** ${w}.`).join('\n\n')}` : ''}

${arms.map(armLine).join('\n')}
${skipped.length ? `\nNot exported:\n${skipped.map((s) => `- \`${s.id}\` (${s.scheme}): ${s.reason}.`).join('\n')}\n` : ''}
## Run it

\`\`\`sh
python -m venv .venv && . .venv/bin/activate
pip install -r requirements.txt          # or requirements-vllm.txt for --use_vllm
bash launch.sh ${first.id}${lrFlag}    # one arm; logs and outputs in runs/<run id>/
\`\`\`
${lrFlag ? `\nThe learning rate: the spec's ${sci(lr)} was tuned for the lab's tiny models and is far too high for a model of\nhundreds of millions of parameters; ${sci(SAFE_LLM_LEARNING_RATE)} is Co-RL's. Without \`--learning_rate\` the run uses ${sci(lr)}.\n` : ''}
\`launch.sh ARM\` starts every member of the arm at once, one GPU each (\`GPUS\`, \`NPROC\`,
\`RUN_ID\`, \`RUN_DIR\`, \`PORT_BASE\`, \`STOP_GRACE\` at its top), each under \`setsid\` in a process
group of its own, and stops every member's whole group when one member fails, on Ctrl-C and when it
exits. It passes the shipped accelerate config (\`${ACCELERATE_CONFIGS.one}\`, or
\`${ACCELERATE_CONFIGS.multi}\` when NPROC > 1) with \`--config_file\`, so an accelerate
\`default_config.yaml\` of your machine does not apply. Run the arms one after another, or side by
side with different \`GPUS\`, \`RUN_DIR\` and \`PORT_BASE\`. The same, by hand (all members of an arm
with the same \`--run_id\` and \`--run_dir\`; by hand nothing stops the others when one fails, and
Ctrl-C does not reach background jobs):

\`\`\`sh
${commands}
\`\`\`

A model is a Hugging Face id or a local folder of a saved checkpoint (\`npm run export -- ...
--model A=/path/to/checkpoint\`: its config, weights and tokenizer, as \`save_pretrained\` writes
them). Without a GPU, add \`--grpo use_cpu=true --grpo bf16=false\` (TRL's default is bf16).

Flags of \`train_cohort.py\` (\`--help\`): \`--dataset lab|gsm8k\` (the lab's problems, or GSM8K
downloaded by \`datasets\` when training starts, answer = the number after the last '>'),
\`--prompt_style instruct|lab\`, \`--learning_rate\`, \`--max_completion_length\`, \`--max_steps\`,
\`--use_vllm\`, \`--max_micro_batch\`, \`--report_to\`, \`--grpo KEY=VALUE\` for any other
\`GRPOConfig\` field, the rendezvous timeouts, and \`--dry_run\` (print the \`GRPOConfig\`
arguments and the first training row, then exit: with \`--dataset lab\` it needs only python3, no GPU,
torch or TRL; with \`--dataset gsm8k\` it still downloads GSM8K, so it needs \`datasets\` and the network).

## Before you train

- **Learning rate.** The spec's ${sci(lr)} was tuned for the lab's tiny models.${lrFlag ? ` For a model of hundreds of millions of parameters that is far too high (Co-RL trains at ${sci(SAFE_LLM_LEARNING_RATE)}): the commands above pass \`--learning_rate ${sci(SAFE_LLM_LEARNING_RATE)}\`.` : ''}${
    spec.grpo.lossNormalisation === 'dr_grpo'
      ? `\n- **dr_grpo's divisor.** TRL's dr_grpo divides the loss by completions x \`max_completion_length\` (${DEFAULT_MAX_COMPLETION_LENGTH} tokens, fixed), not by the lab's own length cap: the same method, with the loss (and so the step) scaled by a constant; see the table.`
      : ''
  }
- **Prompts.** The lab's models read \`8+3+9=\` and write \`8,1>0\`. An instruct model gets a
  sentence asking for the same answer after a final '>' (data/*.jsonl, \`question\`);
  \`--prompt_style lab\` feeds the raw lab prompt instead (for a base model).
- **Answer extraction** (cohort_rewards.py \`extract_answer\`, the lab's rule): a completion cut off
  at the length cap casts no vote; otherwise the answer is the text after the last '>' (surrounding
  whitespace and one trailing period dropped) and must be a well-formed answer of the task, or it
  casts no vote and earns nothing.

## What maps to what

${table(['lab (spec)', 'value', 'TRL GRPOConfig', 'value', 'note'], rows)}

The reward step is one reward function given through TRL's public API (\`reward_funcs\`): TRL
calls it with the prompts, completions, completion ids and the data set's other columns (\`answer\`,
\`row\`); no TRL method is overridden. Per RL step the script extracts every completion's answer,
gathers them over the member's processes, votes per prompt (plurality; a tie broken by the
lab's seeded stream \`ties/<arm>/<member>/<step>\`, so the same answers give the lab's labels), then:

- \`oracle\`, \`self\`, \`self-soft\`: rewards from the truth or its own votes; no exchange;
- \`peer\`, \`ring\`, \`cohort\`: the main process writes its labels and ballots to
  \`<run_dir>/rendezvous/<arm>/step-NNNNNN.from-A.to-B.json\` (written to a temporary name, then
  renamed), waits for the other members' files of the same step, checks that they labeled the same
  prompt batch (a key of the step's rows), and hands them to its other ranks through a file of its
  own (\`<run_dir>/relay/<arm>/<member>/\`), for which they wait outside any collective; peer takes the
  partner's labels, ring the next member's, cohort the plurality of the others' pooled ballots with
  ties discarded;
- \`teacher\`: the frozen teacher model samples G completions per prompt on the main process, with
  the policy's sampling settings (the GRPOConfig's temperature, top_p, top_k, min_p and
  repetition_penalty 1.0, and the tokenizer's end token, not the model's own generation_config), and
  its plurality is the label.

A member that is gone is reported instead of waited for: each process keeps a heartbeat file fresh
and marks itself failed or done; a waiting member stops with a message naming the peer when it
failed, finished, stopped beating (\`--heartbeat_stale_after\`, 300 s) or its process no longer
exists, and after \`--rendezvous_timeout\` (3600 s) in any case. The process group's timeout
(\`ddp_timeout\`) is set 600 s above the longer of the rendezvous timeouts, so no collective gives up
first, and a member with more than one process loads its model with \`device_map=None\` (TRL ${TRL_VERSION}
would use "auto", which data-parallel training refuses; TRL 0.27.0 does the same). cohort_rewards.py is the lab's
vote and reward logic in plain Python; the lab tests it against its TypeScript engine.

Logged per step besides TRL's own metrics: \`cohort/pseudo_label_accuracy\`,
\`cohort/labeled_fraction\`, \`cohort/own_vote_accuracy\`, \`cohort/own_tie_rate\`,
\`cohort/own_majority_ratio\`, \`cohort/parseable_fraction\`, \`cohort/oracle_reward\` (the truth is
used for these measurements only, never for a label-free reward), \`cohort/rendezvous_wait_s\`;
at evaluation the reward is held-out pass@1 and \`cohort/maj_at_g\` maj@G. The held-out set is
evaluated before the first step, every \`eval_steps\`, and at the last step as in the lab (a callback
adds it when the steps are not a multiple of the interval).

## No counterpart in TRL

${noCounterpart(spec).map((s) => `- ${s}`).join('\n')}

${memorySection(spec, models, table)}

${checksSection()}

## Files

- \`train_cohort.py\`: the trainer (a \`GRPOTrainer\` subclass) and its command line
- \`cohort_rewards.py\`: votes, labels, rewards and answer extraction (standard library only)
- \`rendezvous.py\`: the shared-directory exchange, heartbeats and timeouts (standard library only)
- \`cohort_plan.py\`: config.json to \`GRPOConfig\` arguments, the batch split, seeds and timeouts
- \`cohort_sampling.py\`: the frozen teacher's sampling (the policy's settings) and vLLM's per-member seed
- \`lab_models.py\`: the lab's own windowed MLP as a Hugging Face causal LM, read from a lab warm-start file
  (for training the lab's members themselves under TRL: \`--prompt_style lab_bos\`)
- \`config.json\`: members, model ids, arms and the mapped settings; \`spec.json\`: the lab's spec
- \`data/rl.jsonl\`, \`data/heldout.jsonl\`, \`data/labeled.jsonl\`: the lab's split (RL pool,
  held-out, labeled pool); \`data/schedule.json\`: the RL pool rows of every step, in the lab's order
- \`launch.sh\`, \`${ACCELERATE_CONFIGS.one}\`, \`${ACCELERATE_CONFIGS.multi}\`, \`requirements.txt\`,
  \`requirements-vllm.txt\`
`;
}
