import { useLab } from '../store';
import { roomLockReason } from '../store/roomSlice';
import { ArmsEditor } from './ArmsEditor';
import { CohortEditor } from './CohortEditor';
import { GrpoControls } from './GrpoControls';
import { PresetPicker } from './PresetPicker';
import { TaskControls } from './TaskControls';

/** The left column: everything that defines the next run. */
export function ExperimentPanel() {
  const running = useLab((s) => s.run.phase === 'preparing' || s.run.phase === 'warmstart' || s.run.phase === 'rl');
  // A classroom link (?hide=) may hide the whole panel or some of its sections: not rendered at all.
  const hidden = useLab((s) => s.classroom.hidden);
  // A class room fixes the experiment while it runs (every browser trains the same one).
  const locked = useLab(roomLockReason);
  if (hidden.includes('experiment')) return null;
  return (
    <section className="experiment" aria-labelledby="experiment-title" data-testid="experiment-panel" data-locked={locked !== null}>
      <h2 id="experiment-title">Experiment</h2>
      {locked && (
        <p className="notice" data-testid="experiment-locked">
          {locked}
        </p>
      )}
      {running && !locked && <p className="notice">Edits apply to the next run (press Reset, then Start).</p>}
      <fieldset className="experiment-fields" disabled={locked !== null}>
        <legend className="sr-only">Experiment settings</legend>
      <PresetPicker />
      {!hidden.includes('task') && (
        <details open className="group">
          <summary>Task and run</summary>
          <TaskControls />
        </details>
      )}
      {!hidden.includes('cohort') && (
        <details open className="group">
          <summary>Cohort</summary>
          <CohortEditor />
        </details>
      )}
      {!hidden.includes('arms') && (
        <details open className="group">
          <summary>Arms (reward schemes)</summary>
          <ArmsEditor />
        </details>
      )}
      {!hidden.includes('grpo') && (
        <details className="group">
          <summary>GRPO</summary>
          <GrpoControls />
        </details>
      )}
      </fieldset>
    </section>
  );
}
