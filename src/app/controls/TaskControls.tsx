import { useState } from 'react';
import { getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { TASKS } from '../../core/tasks/index';
import { customTaskCard } from '../../core/tasks/custom/index';
import type { TaskId } from '../../core/tasks/types';
import { DATA_KNOBS, RUN_KNOBS, WARM_KNOBS, type Knob } from '../lib/knobs';
import { useLab } from '../store';
import { updateTask } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { NumberField } from './NumberField';
import { TaskEditor } from './TaskEditor';
import { GALLERY } from '../../core/tasks/custom/gallery';
import { galleryTaskOf, withGalleryTask } from './taskEditorModel';

/** The select's value for a gallery task. */
const GALLERY_PREFIX = 'gallery:';

/** The select's value for the draft's own task. */
const OWN = 'custom';

/**
 * The draft with built-in task `id`: a custom task's definition goes, and the data sizes and
 * warm-start sets it shrank come back from the preset.
 */
export function withBuiltinTask(d: ExperimentSpec, id: TaskId, presetId: string): ExperimentSpec {
  const t = TASKS[id];
  const difficulty = Math.min(t.difficultyRange[1], Math.max(t.difficultyRange[0], d.task.difficulty));
  if (d.task.id !== 'custom') return updateTask(d, { id, difficulty });
  const preset = getPreset(presetId)?.spec;
  const examples = new Map(preset?.members.map((m) => [m.id, m.warmStartExamples]));
  return {
    ...d,
    task: { id, difficulty: preset?.task.id === id ? preset.task.difficulty : difficulty, scratchpad: d.task.scratchpad },
    data: preset?.data ?? d.data,
    members: d.members.map((m) => (examples.has(m.id) ? { ...m, warmStartExamples: examples.get(m.id)! } : m)),
  };
}

const SCRATCHPAD_HELP = 'Warm-start targets show the running work (always), never, or a seeded mix, which lets response length vary.';

export function TaskControls() {
  const draft = useLab((s) => s.draft);
  const presetId = useLab((s) => s.presetId);
  const edit = useLab((s) => s.editDraft);
  const own = draft.task.id === 'custom';
  const gallery = own ? galleryTaskOf(draft.task.definition) : null;
  const [editorOpen, setEditorOpen] = useState(false);
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
          value={gallery ? GALLERY_PREFIX + gallery.id : draft.task.id}
          data-testid="task-select"
          onChange={(e) => {
            const value = e.target.value;
            if (value === OWN) return setEditorOpen(true);
            const picked = value.startsWith(GALLERY_PREFIX) ? GALLERY.find((t) => GALLERY_PREFIX + t.id === value) : undefined;
            if (picked) {
              setEditorOpen(false);
              return edit((d) => withGalleryTask(d, presetId, picked) ?? d);
            }
            edit((d) => withBuiltinTask(d, value as TaskId, presetId));
          }}
        >
          {Object.values(TASKS).map((t) => (
            <option key={t.id} value={t.id}>
              {t.title}
            </option>
          ))}
          <optgroup label="Gallery: questions students posed">
            {GALLERY.map((t) => (
              <option key={t.id} value={GALLERY_PREFIX + t.id}>
                {t.definition.title}
              </option>
            ))}
          </optgroup>
          <option value={OWN}>{own && !gallery ? `Your own: ${task.title}` : 'Your own task…'}</option>
        </select>
        <span className="sub">{task.description}</span>
        {gallery && (
          <p className="sub gallery-note" data-testid="gallery-note">
            {gallery.forStudents}
          </p>
        )}
        <FieldProblems path="task.id" />
        <FieldProblems path="task.definition" />
        {(!own || gallery) && !editorOpen && (
          <button type="button" className="link" data-testid="task-own" onClick={() => setEditorOpen(true)}>
            Pose your own question: write a task or open a file
          </button>
        )}
      </div>
      {((own && !gallery) || editorOpen) && <TaskEditor onClose={own && !gallery ? undefined : () => setEditorOpen(false)} />}
      <div className="field-row">
        {!own && <NumberField knob={difficultyKnob} path="task.difficulty" value={draft.task.difficulty} onChange={(v) => edit((d) => updateTask(d, { difficulty: v }))} compact />}
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
