import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { getPreset } from '../../src/core/experiment/presets';
import { GALLERY } from '../../src/core/tasks/custom/gallery';
import { taskContentHash } from '../../src/core/tasks/custom/index';
import { readBlock } from './science-block';
import { TUNING_SEEDS } from './science-plan';
import { GALLERY_PRESET, gallerySpec, parseTasksFile, taskRow, tasksTable, TASKS_FORMAT, TASKS_VERSION, type TaskSeedRecord, type TasksFile } from './science-tasks-lib';
import { TASKS_BLOCK } from './science-tasks';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

/** A seed whose self arm moves by `self`, peer arm by `peer`, and the oracle ends `lead` above the peer arm. */
function record(seed: number, self: number, peer: number, lead: number): TaskSeedRecord {
  const arm = (start: number, end: number) => ({ passStart: start, passEnd: end, majStart: start, majEnd: end, rewardStart: 0.5, reward: 0.5 + self / 2, collapsed: self < -0.1 ? 1 : 0 });
  return {
    seed,
    base: [
      { member: 'A', passAt1: 0.5, majAtG: 0.7, warmStartSteps: 20, reached: true },
      { member: 'B', passAt1: 0.4, majAtG: 0.6, warmStartSteps: 30, reached: false },
    ],
    arms: { oracle: arm(0.45, 0.45 + peer + lead), self: arm(0.45, 0.45 + self), peer: arm(0.45, 0.45 + peer) },
  };
}

const jitter = (i: number) => ((i % 3) - 1) * 0.01;

describe('the gallery science', () => {
  it("runs each gallery task with the default preset's arms, members and settings, only the task replaced", () => {
    const preset = getPreset(GALLERY_PRESET)!.spec;
    for (const t of GALLERY) {
      const spec = gallerySpec(t, 3);
      expect(spec.task).toEqual({ id: 'custom', difficulty: 1, scratchpad: t.scratchpad, definition: t.definition });
      expect(spec.seed).toBe(3);
      expect(spec.arms).toEqual(preset.arms);
      expect(spec.members).toEqual(preset.members);
      expect(spec.grpo).toEqual(preset.grpo);
      expect(spec.data).toEqual(preset.data);
      expect(spec.steps).toBe(preset.steps);
      expect(spec.warmStart).toEqual({ ...preset.warmStart, onMiss: 'continue' });
    }
    expect(gallerySpec(GALLERY[0], 1, 30).steps).toBe(30);
  });

  it('reads each difference with its interval, its verdict and the Holm verdicts of the three', () => {
    const file: TasksFile = {
      format: TASKS_FORMAT,
      version: TASKS_VERSION,
      preset: GALLERY_PRESET,
      steps: 120,
      seeds: [1, 2, 3, 4, 5, 6, 7, 8],
      command: 'test',
      tasks: [
        { id: 'falls', title: 'x', hash: '0', scratchpad: 'never', records: [1, 2, 3, 4, 5, 6, 7, 8].map((s) => record(s, -0.15 + jitter(s), 0.1 + jitter(s), 0.002 * (s % 2 ? 1 : -1))) },
        { id: 'noise', title: 'y', hash: '1', scratchpad: 'always', records: [1, 2, 3, 4, 5, 6, 7, 8].map((s) => record(s, s % 2 ? 0.1 : -0.1, s % 2 ? -0.1 : 0.1, -0.1 + jitter(s))) },
      ],
    };
    const falls = taskRow(file.tasks[0]);
    expect(falls.selfChange.verdict).toBe('contradicted');
    expect(falls.peerGain.verdict).toBe('shown');
    expect(falls.oracleLead.verdict).toBe('not shown');
    expect(falls.basePass.mean).toBeCloseTo(0.45);
    expect(falls.reached).toEqual([8, 16]);
    expect(falls.collapsedSeeds).toBe(8);
    const noise = taskRow(file.tasks[1]);
    expect([noise.selfChange.verdict, noise.peerGain.verdict, noise.oracleLead.verdict]).toEqual(['not shown', 'not shown', 'contradicted']);
    const table = tasksTable(file);
    expect(table).toHaveLength(4);
    expect(table[2]).toMatch(/^\| falls \(no scratchpad\) \| 0\.45 ± 0\.00 \| 0\.65 ± 0\.00 \| −0\.15 \[−0\.16, −0\.14\] falls \| .* \| \+0\.10 \[\+0\.09, \+0\.11\] rises \| \+0\.00 \[.*\] not shown \| falls, rises, not shown \| 8\/8 \|$/);
    expect(table[3]).toMatch(/^\| noise \(scratchpad always\) .* not shown \| −0\.10 \[.*\] trails \| not shown, not shown, trails \| 0\/8 \|$/);
  });

  it('refuses a results file that is not one, in words', () => {
    expect(parseTasksFile('{').ok).toBe(false);
    const bad = parseTasksFile(JSON.stringify({ format: TASKS_FORMAT, version: TASKS_VERSION, preset: 'p', steps: 1, seeds: [], command: '', tasks: [{ id: 'x' }] }));
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatch(/tasks\.0\./);
  });

  it("docs/RESULTS.md quotes the table of bench/results/science-tasks.json word for word, and the file ran today's gallery", () => {
    const parsed = parseTasksFile(readFileSync(resolve(ROOT, 'bench/results/science-tasks.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    const file = parsed.file;
    expect(file.preset).toBe(GALLERY_PRESET);
    expect(file.seeds).toEqual([...TUNING_SEEDS]);
    expect(file.steps).toBe(getPreset(GALLERY_PRESET)!.spec.steps);
    // Every gallery task, with the definition it has now, every seed.
    expect(file.tasks.map((t) => [t.id, t.hash, t.scratchpad])).toEqual(GALLERY.map((t) => [t.id, taskContentHash(t.definition), t.scratchpad]));
    for (const t of file.tasks) expect(t.records.map((r) => r.seed), t.id).toEqual([...TUNING_SEEDS]);
    const quoted = readBlock(readFileSync(resolve(ROOT, 'docs/RESULTS.md'), 'utf8'), TASKS_BLOCK);
    expect(quoted).toEqual(tasksTable(file));
  });

  it("docs/TASKS.md's gallery section names every gallery task and how many there are", () => {
    const section = readFileSync(resolve(ROOT, 'docs/TASKS.md'), 'utf8').split('\n## The gallery\n')[1]?.split('\n## ')[0] ?? '';
    const named = [...section.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]);
    expect(named).toEqual(GALLERY.map((t) => t.id));
    const words = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten'];
    expect(section.trimStart().startsWith(`${words[GALLERY.length]} generator tasks`)).toBe(true);
  });
});
