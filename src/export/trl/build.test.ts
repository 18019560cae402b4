/**
 * The TRL export builder: the CLI's and the browser's Python sources and projects are identical;
 * the spec maps onto GRPOConfig as documented; the data files are the lab's split and per-step
 * prompts; model ids and arms that cannot be exported are refused or reported in one line.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../core/random';
import { PRESETS, getPreset } from '../../core/experiment/presets';
import { experimentSplit, stepPromptIndices } from '../../core/experiment/data';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { readZipStore } from '../zip';
import { nodePythonSources } from '../../../cli/trl/export-sources';
import { BROWSER_PYTHON_SOURCES } from './browserSources';
import { buildTrlZip } from './browser';
import { ExportError, buildTrlProject, instructPrompt, projectName, type TrlExport } from './build';
import { DEFAULT_MODEL_ID, LOCAL_PATH_MAX, modelIdProblem, paramsFromId, sharedModelWarnings } from './modelIds';
import { memoryEstimateGb } from './memory';
import { REQUIREMENTS, TRL_VERSION } from './mapping';
import { PYTHON_FILES } from './sources';
import { TRL_CPU_RUN } from './cpuRun';

const QWEN = DEFAULT_MODEL_ID;
const models = (spec: ExperimentSpec) => spec.members.map(() => QWEN);
const build = (spec: ExperimentSpec, m = models(spec), presetId: string | null = null) => buildTrlProject(spec, { models: m, presetId }, nodePythonSources());
const file = (b: TrlExport, path: string) => {
  const f = b.files.find((x) => x.path === path);
  if (!f) throw new Error(`no ${path} in the export`);
  return f.text;
};
const jsonl = (text: string) => text.trim().split('\n').map((l) => JSON.parse(l));

describe('the TRL export builder', () => {
  it('gets the same Python sources in the browser (Vite ?raw) as in Node (fs), and builds the same project from them', () => {
    const node = nodePythonSources();
    for (const name of PYTHON_FILES) expect(BROWSER_PYTHON_SOURCES[name], name).toBe(node[name]);
    for (const id of ['collapse', 'ring', 'peers-teach', 'intrinsic']) {
      const spec = PRESETS[id].spec;
      const cli = buildTrlProject(spec, { models: models(spec), presetId: id }, node);
      const zip = buildTrlZip(spec, models(spec), id);
      expect(zip.fileName).toBe(`cohort-lab-${id}-trl.zip`);
      const entries = readZipStore(zip.bytes).map((e) => ({ path: e.path, text: new TextDecoder().decode(e.data) }));
      expect(entries).toEqual(cli.files.map((f) => ({ path: `cohort-lab-${id}-trl/${f.path}`, text: f.text })));
    }
  });

  it('names one TRL release in the lab and in the exported script (the version its override is checked against)', () => {
    expect(/^TRL_VERSION = "([^"]+)"$/m.exec(nodePythonSources()['cohort_plan.py'])?.[1]).toBe(TRL_VERSION);
    expect(REQUIREMENTS).toContain(`trl==${TRL_VERSION}`);
  });

  it('maps the spec onto GRPOConfig as the README says', () => {
    const base = getPreset('collapse')!.spec;
    const spec: ExperimentSpec = {
      ...base,
      steps: 30,
      evalEvery: 5,
      grpo: { ...base.grpo, groupSize: 6, learningRate: 2e-4, beta: 0.04, clipEps: 0.3, advantageScale: 'none', lossNormalisation: 'bnpo', updatesPerBatch: 2, maxGradNorm: 0, temperature: 0.7 },
    };
    const config = JSON.parse(file(build(spec), 'config.json'));
    expect(config.format).toBe('cohort-lab-trl');
    expect(config.trl_version).toBe('0.26.2');
    expect(config.prompts_per_step).toBe(spec.grpo.promptsPerStep);
    expect(config.grpo).toMatchObject({
      num_generations: 6,
      learning_rate: 2e-4,
      beta: 0.04,
      epsilon: 0.3,
      scale_rewards: 'none',
      loss_type: 'dapo', // the lab's bnpo normalises over the whole step's tokens: TRL's dapo, not its per-micro-batch bnpo
      num_iterations: 2,
      max_grad_norm: 0,
      temperature: 0.7,
      max_steps: 60,
      eval_steps: 10,
      seed: spec.seed,
      shuffle_dataset: false,
      lr_scheduler_type: 'constant',
    });
    expect(JSON.parse(file(build({ ...spec, grpo: { ...spec.grpo, lossNormalisation: 'dr_grpo' } }), 'config.json')).grpo.loss_type).toBe('dr_grpo');
    expect(JSON.parse(file(build(spec), 'spec.json'))).toEqual(spec);
    const readme = file(build(spec), 'README.md');
    expect(readme).toMatch(/has run\nwith it for real on CPU, with tiny models .*; it has not been run on a\nGPU/);
    expect(readme).toMatch(/\| grpo\.lossNormalisation \| bnpo \| loss_type \| dapo \|/);
    expect(readme).toMatch(/\| steps \| 30 \| max_steps \| 60 \|/);
    expect(readme).toMatch(/one reward function given through TRL's public API .* no TRL method is overridden/s);
    expect(readme).not.toMatch(/_calculate_rewards/);
  });

  it("writes the lab's own problems: its split, and the RL prompts of every step in the lab's order", () => {
    const spec = getPreset('collapse')!.spec;
    const b = build(spec);
    const split = experimentSplit(spec);
    const rl = jsonl(file(b, 'data/rl.jsonl'));
    expect(rl.map((r) => [r.lab_prompt, r.answer, r.scratchpad])).toEqual(split.rl.map((p) => [p.prompt, p.answer, p.scratchpad]));
    expect(jsonl(file(b, 'data/heldout.jsonl')).map((r) => r.lab_prompt)).toEqual(split.heldOut.map((p) => p.prompt));
    const labeled = jsonl(file(b, 'data/labeled.jsonl'));
    expect(labeled.map((r) => r.lab_completion)).toEqual(split.warmStart.map((p) => `${p.scratchpad}>${p.answer}`));
    const schedule = JSON.parse(file(b, 'data/schedule.json'));
    expect(schedule.steps).toHaveLength(spec.steps);
    const root = new Rng(spec.seed);
    for (const s of [1, 2, spec.steps]) expect(schedule.steps[s - 1]).toEqual(stepPromptIndices(root, s, spec.grpo.promptsPerStep, split.rl.length));
    expect(rl[0].question).toContain(rl[0].lab_prompt.slice(0, -1).split('+').join(' + '));
    expect(rl.every((r) => r.question.includes('character > followed by'))).toBe(true);
  });

  it('asks an instruct model for each task in words, with the answer after ">"', () => {
    expect(instructPrompt('digitsum', { prompt: '8+3+9=', answer: '0', scratchpad: '8,1' }, 3)).toMatch(/^Add these 3 digits .*: 8 \+ 3 \+ 9\. .*> followed by the answer digit/);
    expect(instructPrompt('addition', { prompt: '07+45=', answer: '52', scratchpad: '' }, 2)).toMatch(/07 \+ 45\. .*without leading zeros/);
    expect(instructPrompt('reverse', { prompt: 'R3841=', answer: '1483', scratchpad: '' }, 4)).toMatch(/digits 3841 in reverse order\. .*the 4 reversed digits/);
  });

  it('maps members to model ids in order and says in one line when the count or an id does not fit', () => {
    const spec = getPreset('collapse')!.spec;
    const config = JSON.parse(file(build(spec, ['Qwen/Qwen2.5-0.5B-Instruct', 'meta-llama/Llama-3.2-1B-Instruct']), 'config.json'));
    expect(config.members.map((m: { id: string; model: string }) => [m.id, m.model])).toEqual([
      ['A', 'Qwen/Qwen2.5-0.5B-Instruct'],
      ['B', 'meta-llama/Llama-3.2-1B-Instruct'],
    ]);
    expect(() => build(spec, [QWEN])).toThrow(ExportError);
    expect(() => build(spec, [QWEN])).toThrow('the experiment has 2 members (A, B) and 1 model id was given: give one per member, in that order');
    expect(() => build(spec, [QWEN, QWEN, QWEN])).toThrow(/2 members \(A, B\) and 3 model ids were given/);
    expect(() => build(spec, [QWEN, 'not a model'])).toThrow(/^member B: "not a model" is not a Hugging Face model id/);
  });

  it('gives every member its own sampling seed, and warns when members share a model id', () => {
    const spec = getPreset('ring')!.spec;
    const b = build(spec, [QWEN, QWEN, 'meta-llama/Llama-3.2-1B-Instruct']);
    const config = JSON.parse(file(b, 'config.json'));
    expect(config.version).toBe(2);
    expect(config.members.map((m: { sampling_seed: number }) => m.sampling_seed)).toEqual([spec.seed + 1000, spec.seed + 2000, spec.seed + 3000]);
    expect(config.grpo.seed).toBe(spec.seed); // the data order stays shared
    expect(b.notes[0]).toBe(
      `members A and B share the model ${QWEN}: they start from the same weights and differ only by their sampling seeds (config.json sampling_seed), ` +
        'not by initialisation or warm-start data as in the lab; give a different model (or checkpoint) for a truly different peer',
    );
    expect(b.notes.filter((n) => n.startsWith('members '))).toHaveLength(1);
    expect(file(b, 'README.md')).toMatch(/\| members \(their sampling streams\) \| A, B, C \| .* \| A: \d+, B: \d+, C: \d+ \|/);
    expect(file(b, 'README.md')).not.toMatch(/members differ by their model ids/);
    expect(build(spec, [QWEN, 'meta-llama/Llama-3.2-1B-Instruct', 'HuggingFaceTB/SmolLM2-135M-Instruct']).notes).toEqual([]);
    expect(sharedModelWarnings(['A', 'B', 'C'], [QWEN, ` ${QWEN} `, QWEN])[0]).toMatch(/^members A, B and C share the model/);
    expect(sharedModelWarnings(['A', 'B'], ['', ''])).toEqual([]);
  });

  it("README: the first command trains at a safe rate; memory by the dtype loaded; dr_grpo's divisor; what --dry_run needs; what was run", () => {
    const base = getPreset('collapse')!.spec;
    const readme = file(build({ ...base, grpo: { ...base.grpo, learningRate: 3e-4, lossNormalisation: 'dr_grpo', beta: 0.04 } }), 'README.md');
    const firstCommand = readme.split('\n').find((l) => l.startsWith('bash launch.sh'));
    expect(firstCommand).toMatch(/^bash launch\.sh oracle --learning_rate 1e-6 /);
    expect(readme.indexOf('--learning_rate 1e-6')).toBeLessThan(readme.indexOf('## Before you train'));
    expect(readme).toMatch(/Without `--learning_rate` the run uses 3e-4/);
    expect(readme).toMatch(/accelerate launch --config_file accelerate\/one_process\.yaml .* --learning_rate 1e-6 &/);
    expect(readme).toMatch(/loads every model in \*\*float32\*\* \(`model_init_kwargs` dtype float32, set\nexplicitly/);
    expect(readme).toMatch(/\*\*16 bytes per parameter\*\* \(weights 4, gradients 4,\nAdamW moments 8\) \*\*\+ 4 bytes per parameter for the reference model\*\*/);
    expect(readme).toMatch(/dr_grpo's divisor differs: TRL divides by completions x max_completion_length \(256 tokens, a fixed number/);
    expect(readme).toMatch(/\*\*dr_grpo's divisor\.\*\*/);
    expect(readme).toMatch(/with `--dataset gsm8k` it still downloads GSM8K, so it needs `datasets` and the network/);
    expect(readme).not.toMatch(/needs no GPU, torch or TRL\)/);
    expect(readme).toMatch(/## What has run, on what, and what only a GPU run can show/);
    expect(readme).toMatch(/Not run: any GPU \(GPUs remain unmeasured/);
    // The README says what the CPU run gave, from the recorded run (cpuRun.ts, checked against
    // bench/results by cli/trl/trl-check-docs.test.ts): versions, seeds, arms, every claim's verdict.
    expect(readme).not.toMatch(/has not yet recorded|never been run|has not been run where it was exported/);
    expect(readme).toContain(`What ran, exactly (${TRL_CPU_RUN.date}): ${TRL_CPU_RUN.versions}`);
    expect(readme).toContain(`on seeds ${TRL_CPU_RUN.seeds}`);
    for (const a of TRL_CPU_RUN.arms) expect(readme).toContain(`${a.arm} ${a.start} -> ${a.end}`);
    for (const c of TRL_CPU_RUN.claims) expect(readme).toContain(`- ${c.id} ${c.text}: ${c.mean}, **${c.verdict.toLowerCase()}**`);
    expect(file(build(base), 'requirements.txt')).toMatch(/^# Pinned: the versions the lab ran this project with .*GPUs remain unmeasured/s);
    expect(readme).toMatch(/stops every member's whole group when one member fails, on Ctrl-C and when it\nexits/);
    const safe = file(build({ ...base, grpo: { ...base.grpo, learningRate: 1e-6 } }), 'README.md');
    expect(safe.split('\n').find((l) => l.startsWith('bash launch.sh'))).toMatch(/^bash launch\.sh oracle {4}#/);
    expect(safe).not.toMatch(/dr_grpo's divisor/);
  });

  it('checks model ids by form', () => {
    for (const ok of ['gpt2', 'Qwen/Qwen2.5-0.5B-Instruct', 'meta-llama/Llama-3.2-1B-Instruct', 'HuggingFaceTB/SmolLM2-135M-Instruct']) expect(modelIdProblem(ok), ok).toBeNull();
    for (const bad of ['', ' ', 'a/b/c', 'x/..', 'a--b/c', 'has space/x', 'x/y;rm -rf', 'x/-y', 'x/' + 'y'.repeat(97)]) expect(modelIdProblem(bad), bad).not.toBeNull();
    // A local folder (a saved checkpoint): /, ./ or ../ first, then only path-safe characters.
    for (const ok of ['/models/tiny-A', './tiny/A', '../ckpt/step-100', '/tmp/x_y.z/B']) expect(modelIdProblem(ok), ok).toBeNull();
    for (const bad of ['/models/has space', './a;rm -rf ~', '/x/$(id)', "/x/'q'", '/a\nb', '/' + 'a'.repeat(LOCAL_PATH_MAX)]) expect(modelIdProblem(bad), bad).toMatch(/local model path/);
    expect(paramsFromId('Qwen/Qwen2.5-0.5B-Instruct')).toBe(0.5);
    expect(paramsFromId('meta-llama/Llama-3.2-1B-Instruct')).toBe(1);
    expect(paramsFromId('HuggingFaceTB/SmolLM2-135M-Instruct')).toBeCloseTo(0.135);
    expect(paramsFromId('gpt2')).toBeNull();
    expect(memoryEstimateGb(0.5, { reference: false })).toBe(14);
    expect(memoryEstimateGb(0.5, { reference: true })).toBe(16); // + a float32 reference model, 4 bytes per parameter
  });

  it('reports the intrinsic arms as not exported, and refuses a spec with nothing else', () => {
    const spec = getPreset('intrinsic')!.spec;
    const b = build(spec);
    expect(b.exportedArms).toEqual(spec.arms.filter((a) => a.scheme !== 'entropy' && a.scheme !== 'certainty').map((a) => a.id));
    expect(b.skippedArms.map((s) => s.scheme).sort()).toEqual(['certainty', 'entropy']);
    expect(b.notes.join('\n')).toMatch(/arm entropy is not exported: intrinsic reward/);
    const readme = file(b, 'README.md');
    expect(readme).toMatch(/Not exported:\n- `entropy` \(entropy\): intrinsic reward/);
    expect(file(b, 'launch.sh')).not.toMatch(/entropy\)/);
    const only: ExperimentSpec = { ...spec, arms: spec.arms.filter((a) => a.scheme === 'entropy') };
    expect(() => build(only)).toThrow(/no arm can be exported: entropy \(entropy\)/);
  });

  it('exports ring and teacher arms with their wiring, and says what voteSize cannot do', () => {
    const ring = build(getPreset('ring')!.spec);
    const ringArm = JSON.parse(file(ring, 'config.json')).arms.find((a: { scheme: string }) => a.scheme === 'ring');
    expect(ringArm.members).toEqual(['A', 'B', 'C']);
    expect(file(ring, 'launch.sh')).toMatch(/\n {2}ring\) MEMBERS=\(A B C\) ;;\n/);
    const teach = build(getPreset('peers-teach')!.spec);
    const t = JSON.parse(file(teach, 'config.json')).arms.find((a: { scheme: string }) => a.scheme === 'teacher');
    expect(t).toMatchObject({ scheme: 'teacher', members: ['A'], teacher: 'B' });
    expect(file(teach, 'README.md')).toMatch(/also holds the frozen teacher B/);
    const base = getPreset('collapse')!.spec;
    const voted = build({ ...base, grpo: { ...base.grpo, voteSize: 16 } });
    expect(voted.notes.join('\n')).toMatch(/voteSize 16 has no TRL counterpart/);
    expect(file(voted, 'README.md')).toMatch(/\*\*grpo\.voteSize = 16\*\*/);
  });

  it('names the project after the preset, and only after a safe one', () => {
    expect(projectName('collapse')).toBe('cohort-lab-collapse-trl');
    expect(projectName(null)).toBe('cohort-lab-experiment-trl');
    expect(projectName('../etc')).toBe('cohort-lab-experiment-trl');
  });
});
