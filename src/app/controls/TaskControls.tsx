import { TASKS } from '../../core/tasks/index';
import { customTaskCard } from '../../core/tasks/custom/index';
import type { TaskId } from '../../core/tasks/types';
import { DATA_KNOBS, RUN_KNOBS, WARM_KNOBS, type Knob } from '../lib/knobs';
import { useLab } from '../store';
import { updateTask } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { NumberField } from './NumberField';

const SCRATCHPAD_HELP = 'Warm-start targets show the running work (always), never, or a seeded mix, which lets response length vary.';

export function TaskControls() {
  const draft = useLab((s) => s.draft);
  const edit = useLab((s) => s.editDraft);
  const task = draft.task.id === 'custom' ? customTaskCard(draft.task.definition) : TASKS[draft.task.id];
  const [lo, hi] = task.difficultyRange;
  const difficultyKnob: Knob = {
    key: 'difficulty',
    label: 'Difficulty',
    help: `${task.title}: how many digits. This task allows ${lo} to ${hi}.`,
    range: { min: lo, max: hi, integer: true },
    step: 1,
  };
  const set = <K extends 'seed' | 'steps' | 'evalEvery'>(k: K) => (v: number) => edit((d) => ({ ...d, [k]: v }));
  return (
    <>
      <div className="field">
        <label htmlFor="task-select" title={task.description}>
          Task
        </label>
        <select
          id="task-select"
          value={draft.task.id}
          data-testid="task-select"
          onChange={(e) => {
            const id = e.target.value as TaskId;
            const t = TASKS[id];
            edit((d) => updateTask(d, { id, difficulty: Math.min(t.difficultyRange[1], Math.max(t.difficultyRange[0], d.task.difficulty)) }));
          }}
        >
          {Object.values(TASKS).map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
        </select>
        <span className="sub">{task.description}</span>
        <FieldProblems path="task.id" />
      </div>
      <div className="field-row">
        <NumberField knob={difficultyKnob} path="task.difficulty" value={draft.task.difficulty} onChange={(v) => edit((d) => updateTask(d, { difficulty: v }))} compact />
        <div className="field field-compact">
          <label htmlFor="scratchpad-select" title={SCRATCHPAD_HELP}>
            Scratchpad
          </label>
          <select id="scratchpad-select" value={draft.task.scratchpad} title={SCRATCHPAD_HELP} onChange={(e) => edit((d) => updateTask(d, { scratchpad: e.target.value as 'always' | 'never' | 'mixed' }))}>
            <option value="always">always</option>
            <option value="mixed">mixed</option>
            <option value="never">never</option>
          </select>
        </div>
      </div>
      <FieldProblems path="data" />
      <div className="field-row">
        <NumberField knob={RUN_KNOBS.steps} path="steps" value={draft.steps} onChange={set('steps')} compact />
        <NumberField knob={RUN_KNOBS.evalEvery} path="evalEvery" value={draft.evalEvery} onChange={set('evalEvery')} compact />
        <NumberField knob={RUN_KNOBS.seed} path="seed" value={draft.seed} onChange={set('seed')} compact />
      </div>
      <details className="more">
        <summary>Data and warm start</summary>
        <div className="field-row">
          {(['labeledPool', 'rlPool', 'heldOut'] as const).map((k) => (
            <NumberField key={k} knob={DATA_KNOBS[k]} path={`data.${k}`} value={draft.data[k]} onChange={(v) => edit((d) => ({ ...d, data: { ...d.data, [k]: v } }))} compact />
          ))}
        </div>
        <div className="field-row">
          {(['batchSize', 'learningRate'] as const).map((k) => (
            <NumberField key={k} knob={WARM_KNOBS[k]} path={`warmStart.${k}`} value={draft.warmStart[k]} onChange={(v) => edit((d) => ({ ...d, warmStart: { ...d.warmStart, [k]: v } }))} compact />
          ))}
        </div>
      </details>
    </>
  );
}
