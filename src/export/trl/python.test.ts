/**
 * The exported project's Python and shell: every exported .py compiles (python3 -m py_compile),
 * launch.sh parses (bash -n), and the standard-library modules pass their tests
 * (pytests/: the shared-directory rendezvous with its timeouts and gone-peer errors, the relay
 * between a member's processes, the config-to-GRPOConfig plan, the trainer's own logic against
 * stand-ins of TRL in fake_trl.py, and launch.sh with a stand-in accelerate) on a freshly exported
 * project. Skipped with a notice without python3.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { PYTHON3, hasPython, runPython, writeExport } from './python.testkit';

const py = hasPython();
const PYTESTS = fileURLToPath(new URL('./pytests/', import.meta.url));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function exportOf(presetId: string) {
  const w = writeExport(PRESETS[presetId].spec);
  dirs.push(w.dir);
  return w;
}

describe.skipIf(!py)('the exported Python project', () => {
  it('compiles: every exported .py passes python3 -m py_compile, and launch.sh passes bash -n', () => {
    const { dir, built } = exportOf('peers-teach');
    const pyFiles = built.files.filter((f) => f.path.endsWith('.py')).map((f) => f.path);
    expect(pyFiles.sort()).toEqual(['cohort_plan.py', 'cohort_rewards.py', 'cohort_sampling.py', 'lab_models.py', 'rendezvous.py', 'train_cohort.py']);
    const cache = mkdtempSync(join(tmpdir(), 'pycache-'));
    dirs.push(cache);
    const r = spawnSync(PYTHON3, ['-m', 'py_compile', ...pyFiles], { cwd: dir, encoding: 'utf8', env: { ...process.env, PYTHONPYCACHEPREFIX: cache } });
    expect(r.status, r.stderr).toBe(0);
    const bash = spawnSync('bash', ['-n', 'launch.sh'], { cwd: dir, encoding: 'utf8' });
    if (bash.error) console.warn('NOTICE: bash not found: launch.sh not checked');
    else expect(bash.status, bash.stderr).toBe(0);
  });

  it('a syntax error in an exported file would be caught', () => {
    const r = spawnSync(PYTHON3, ['-c', 'import py_compile, sys; py_compile.compile(sys.argv[1], doraise=True)', '/dev/stdin'], { input: 'def f(:\n', encoding: 'utf8' });
    expect(r.status).not.toBe(0);
  });

  it('passes the tests of its rendezvous, rank relay, GRPOConfig plan, trainer logic (TRL stood in for) and launch.sh (accelerate stood in for)', () => {
    const { dir } = exportOf('collapse');
    const r = spawnSync(PYTHON3, ['-m', 'unittest', 'test_rendezvous', 'test_plan', 'test_trainer', 'test_launch'], {
      cwd: PYTESTS,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, COHORT_EXPORT_DIR: dir, PYTHONDONTWRITEBYTECODE: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Ran [3-9]\d tests/);
    if (/skipped=/.test(r.stderr)) console.warn(`NOTICE: some tests of the exported project were skipped:\n${r.stderr.split('\n').filter((l) => /skip/i.test(l)).join('\n')}`);
  });

  it("dry-runs the training script's command line: its GRPOConfig arguments and the lab's step-1 prompts, without torch or TRL", () => {
    const { dir } = exportOf('collapse');
    const spec = PRESETS.collapse.spec;
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(PYTHON3, ['-B', 'train_cohort.py', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env } });
    const r = run(['--arm', 'peer', '--member', 'A', '--run_id', 'R', '--dry_run', '--learning_rate', '1e-6', '--grpo', 'bf16=false'], { WORLD_SIZE: '2' });
    expect(r.status, r.stderr).toBe(0);
    const plan = JSON.parse(r.stdout);
    expect(plan).toMatchObject({ arm: 'peer', scheme: 'peer', member: 'A', peers: ['B'], run_id: 'R', world_size: 2, sampling_seed: spec.seed + 1000 });
    expect(plan.grpo_config.model_init_kwargs).toEqual({ dtype: 'float32', device_map: null });
    expect(plan.grpo_config.ddp_timeout).toBeGreaterThan(3600);
    expect(plan.grpo_config).toMatchObject({ learning_rate: 1e-6, bf16: false, num_generations: spec.grpo.groupSize, max_steps: spec.steps });
    expect(plan.grpo_config.per_device_train_batch_size * 2 * plan.grpo_config.gradient_accumulation_steps).toBe(spec.grpo.promptsPerStep * spec.grpo.groupSize);
    expect(plan.train_rows).toBe(spec.steps * spec.grpo.promptsPerStep);
    const schedule = JSON.parse(readFileSync(join(dir, 'data', 'schedule.json'), 'utf8'));
    expect(plan.first_train_row.problem_id).toBe(`rl-${schedule.steps[0][0]}`);
    expect(plan.first_train_row.prompt[0].role).toBe('user');
    const lab = JSON.parse(run(['--arm', 'self', '--member', 'B', '--prompt_style', 'lab', '--dry_run']).stdout);
    expect(lab.first_train_row.prompt).toMatch(/^[0-9+]+=$/);
    expect(lab.sampling_seed).toBe(spec.seed + 2000);
    const noRunId = run(['--arm', 'peer', '--member', 'B', '--dry_run']);
    expect(noRunId.status).toBe(2);
    expect(noRunId.stderr).toMatch(/--run_id is needed/);
    const bad = run(['--arm', 'nope', '--member', 'A', '--dry_run']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe("error: no arm 'nope' in the export (exported arms: oracle, self, peer)");
  });

  it("keeps the fake TRL's surface the installed TRL's: names and signatures read from the package (skipped, saying why, without TRL)", () => {
    const { dir } = exportOf('peers-learn');
    // The venv npm run trl-check installs, where it exists; else python3, where TRL is usually absent.
    const venv = fileURLToPath(new URL('../../../.venv-trl/bin/python', import.meta.url));
    const python = process.env.TRL_PYTHON ?? (existsSync(venv) ? venv : PYTHON3);
    const r = spawnSync(python, ['-m', 'unittest', '-v', 'test_trl_surface'], {
      cwd: PYTESTS,
      encoding: 'utf8',
      timeout: 300_000,
      env: { ...process.env, COHORT_EXPORT_DIR: dir, PYTHONDONTWRITEBYTECODE: '1', HF_HUB_OFFLINE: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/Ran 6 tests/);
    const skipped = /skipped ["']TRL is not installed here/.test(r.stderr);
    if (skipped) console.warn(`NOTICE: the fake TRL was not compared with the real one (${python}): TRL is not installed there; npm run trl-check installs it`);
    else expect(r.stderr).not.toMatch(/skipped/);
  });

  it('plans a GRPOConfig for every exported (arm, member) of every preset', () => {
    for (const id of Object.keys(PRESETS)) {
      const { dir, built } = exportOf(id);
      const out = runPython(
        [
          '-c',
          'import sys, json; sys.path.insert(0, sys.argv[1]); import cohort_plan as p\n' +
            'c = p.load_config(sys.argv[1] + "/config.json")\n' +
            'print(json.dumps([[a["id"], m, p.peers_of(a, m), p.grpo_config_kwargs(c, a["id"], m, 1, "o")["max_steps"]] for a in c["arms"] for m in a["members"]]))',
          dir,
        ],
        '',
      );
      const spec = PRESETS[id].spec;
      const expected = spec.arms
        .filter((a) => built.exportedArms.includes(a.id))
        .flatMap((a) => a.members.map((m) => [a.id, m, ['peer', 'ring', 'cohort'].includes(a.scheme) ? a.members.filter((x) => x !== m) : [], spec.steps * spec.grpo.updatesPerBatch]));
      expect(JSON.parse(out), id).toEqual(expected);
    }
  });
});
