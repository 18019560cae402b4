import { focusPauseSoon } from './focusAfterStart';
import { isActivePhase } from '../../engine/protocol';
import { useLab } from '../store';
import { SPEEDS } from '../store/uiSlice';
import { lab } from '../trainingWorker';
import { ExportMenu } from './ExportMenu';
import { ImportButton } from './ImportButton';
import { RunStatus } from './RunStatus';
import { SeedsControl } from './SeedsControl';
import { useStartReason } from './useStartReason';
import { seedRuns } from '../seedRuns';
import { VERDICT_SEEDS } from '../../core/experiment/verdict';

/**
 * Start, Pause/Resume, Step, Reset, run files and speed, with the status line under them (its
 * Details hold the developer figures and "Export for GPUs").
 */
export function RunBar() {
  const run = useLab((s) => s.run);
  const speed = useLab((s) => s.ui.stepsPerSecond);
  // Workshop mode: the audience predicts before Start. A classroom link may hide some controls.
  const hidden = useLab((s) => s.classroom.hidden);
  const active = isActivePhase(run.phase);
  const startReason = useStartReason();
  const ownTask = useLab((s) => s.draft.task.id === 'custom');
  return (
    <div className="run-bar" data-testid="run-bar" role="region" aria-label="Run controls">
      <div className="buttons">
        <button type="button" className="primary" disabled={startReason != null} title={startReason ?? (ownTask ? `Warm-start the cohort, then train every arm, over ${VERDICT_SEEDS} seeds: the verdict on your question` : 'Warm-start the cohort, then train every arm')} aria-describedby={startReason ? 'start-reason' : undefined} data-testid="start" onClick={() => seedRuns.startDraft() && focusPauseSoon()}>
          ▶ Start
        </button>
        <SeedsControl disabledReason={startReason} />
        {hidden.includes('pause') ? null : run.paused ? (
          <button type="button" disabled={!active || run.halted} title={run.halted ? 'A number became infinite or NaN: this run cannot go on (see the message). Change the settings and Start again.' : undefined} data-testid="resume" onClick={() => lab.resume()}>
            ▶ Resume
          </button>
        ) : (
          <button type="button" disabled={!active || run.pauseRequested} data-testid="pause" title="Stop after the step in progress" onClick={() => lab.pause()}>
            {run.pauseRequested ? 'Pausing…' : '❚❚ Pause'}
          </button>
        )}
        {!hidden.includes('step') && (
        <button type="button" disabled={!active || !run.paused || run.stepRequested || run.halted} data-testid="step" title={run.halted ? 'This run stopped at a non-finite number and cannot go on' : run.paused ? 'Run exactly one RL step' : 'Pause first, then step one RL step at a time'} onClick={() => lab.step()}>
          {run.stepRequested ? 'Stepping…' : 'Step +1'}
        </button>
        )}
        <button type="button" disabled={run.phase === 'idle'} data-testid="reset" title="Stop the run and clear the charts" onClick={() => lab.reset()}>
          ↺ Reset
        </button>
        <ExportMenu /> <ImportButton />
        {!hidden.includes('speed') && (
        <label className="field-inline speed" title="Most RL steps per second; Max runs as fast as the device can.">
          Speed
          <select value={speed == null ? 'max' : String(speed)} data-testid="speed" onChange={(e) => lab.setSpeed(e.target.value === 'max' ? null : Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={String(s)} value={s == null ? 'max' : String(s)}>
                {s == null ? 'Max' : `${s} step/s`}
              </option>
            ))}
          </select>
        </label>
        )}
      </div>
      {startReason && !active && (
        <p className="start-reason" id="start-reason" data-testid="start-reason">
          {startReason}
        </p>
      )}
      <RunStatus />
    </div>
  );
}
