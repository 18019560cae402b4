import { StartupTimeline } from './StartupTimeline';
import { cohortSignature, measurementText } from '../../engine/backendChoice';
import { readBackendParam } from '../../engine/protocol';
import { validationOf } from '../controls/validation';
import { backendStatusText } from './backendStatus';
import { fmtDuration, fmtPercent, fmtRate } from '../lib/format';
import { useLab } from '../store';
import { classProgress } from '../room/classProgress';
import { throughput } from '../store/progress';
import { lastStepRewards } from '../store/series';
import type { EngineState, RunState } from '../store/runSlice';
import { backendFromUrl } from '../trainingWorker';
import { CohortSummary } from './CohortSummary';
import { ExportTrlButton } from './ExportTrlButton';
import { runProgress } from './runProgress';
import { bannerText } from './Notices';
import { missPhaseText } from './warmMiss';

export function phaseText(run: RunState): string {
  // Whatever the worker says of the phase: the run cannot go on from poisoned weights.
  if (run.halt) return `Stopped at step ${run.halt.step}: the ${run.halt.quantity === 'gradient' ? 'gradient norm' : run.halt.quantity} became ${run.halt.value}`;
  const paused = run.paused ? ' (paused)' : '';
  switch (run.phase) {
    case 'idle':
      return 'Ready';
    case 'preparing':
      return `Preparing${paused}`;
    case 'warmstart':
      if (!run.warm) return `Warm start${paused}`;
      return (
        `Warm start: member ${run.warm.memberId} (${run.warm.memberIndex + 1} of ${run.warm.memberCount}), ` +
        // No steps: a stored warm start, or none to train (not "step 0 of 0").
        (run.warm.steps === 0
          ? 'ready (stored, or none to train)'
          : run.warm.target === undefined
          ? `step ${run.warm.step} of ${run.warm.steps}`
          : `step ${run.warm.step}, until ${fmtPercent(run.warm.target)} of validation answers are reproduced (at most ${run.warm.steps})`) +
        paused
      );
    case 'rl':
      return run.step == null ? `Evaluating the base models${paused}` : `RL step ${run.step} of ${run.steps}${paused}`;
    case 'done':
      return `Done: ${run.step ?? 0} of ${run.steps} RL steps`;
    case 'stopped':
      return 'Stopped';
    case 'error':
      // A warm start that missed its target is the task out of reach, not a fault.
      return missPhaseText(run.error) ?? 'Stopped by an error';
  }
}

/** The backend choice by measurement, as plain text (null: nothing to say yet). */
function BackendChoice({ engine }: { engine: EngineState }) {
  const m = engine.measurement;
  const draft = validationOf(useLab((s) => s.draft));
  if (m) {
    // The key ends with the cohort signature it was measured for.
    const other = m.status !== 'measuring' && draft.ok && !m.key.endsWith(`|cohort=${cohortSignature(draft.spec)}`);
    return (
      <span
        className="status-item sub"
        data-testid="backend-choice"
        data-status={m.status}
        data-chosen={m.chosen ?? ''}
        data-measured-at={m.measuredAt ?? ''}
        title={m.rows.map((r) => `${r.backend}: set-up and first step ${r.warmupMs ?? '–'} ms, ${r.timedSteps} timed step(s), ${r.spentMs ?? '–'} ms in all`).join('\n')}
      >
        {measurementText(m)}
        {other && ' (measured for another cohort shape: Start measures this one, or reuses a remembered choice)'}
      </span>
    );
  }
  if (!engine.report || readBackendParam(backendFromUrl()).preferred) return null;
  return (
    <span className="status-item sub" data-testid="backend-choice" data-status="pending" title="One RL step of this cohort is timed on wasm, WebGL and WebGPU; the choice is remembered for this browser and cohort shape.">
      The fastest backend for this cohort is measured at Start
    </span>
  );
}

/** The progress bar of the stage the run is in, and the time left on this machine. */
function RunProgressBar({ run, measuring }: { run: RunState; measuring: boolean }) {
  const p = runProgress(run, measuring);
  if (!p) return null;
  const left = p.leftMs == null ? (p.fraction == null || p.fraction >= 1 ? '' : ' · estimating time left') : p.leftMs > 0 ? ` · about ${fmtDuration(p.leftMs)} left` : '';
  return (
    <span className="status-item run-progress" data-testid="run-bar-progress" data-stage={p.stage} data-left-ms={p.leftMs ?? ''}>
      <progress
        max={1}
        {...(p.fraction == null ? {} : { value: p.fraction })}
        aria-label={`${p.stage}: progress`}
        data-testid={run.phase === 'warmstart' ? 'warm-progress' : 'run-progress-bar'}
      />
      <span>
        {p.fraction == null ? p.stage : `${fmtPercent(p.fraction)}${left}`}
      </span>
    </span>
  );
}

/**
 * The run bar's status for people: what is happening, the step, a progress bar and the
 * time left, and the backend in one word. The backend figures, the probe, the model sizes, the
 * throughput and "Export for GPUs" are in the folded Details.
 */
export function RunStatus() {
  const run = useLab((s) => s.run);
  const engine = useLab((s) => s.engine);
  const report = engine.report;
  const rate = throughput(run.recent);
  const probe = engine.probe;
  // JSON in an attribute (never HTML): the last step's rewards, for tests that compare runs.
  const last = lastStepRewards(run.series);
  const lastMetrics = last ? JSON.stringify(last) : null;
  const measuring = engine.measurement?.status === 'measuring';
  // What the backend item may say of the next run's backend (backendStatus.ts): the cohort Start would run.
  const draft = validationOf(useLab((s) => s.draft));
  const choice = {
    forced: readBackendParam(backendFromUrl()).preferred != null,
    measurement: engine.measurement,
    signature: run.spec && run.phase !== 'idle' ? cohortSignature(run.spec) : draft.ok ? cohortSignature(draft.spec) : null,
    starting: run.phase === 'preparing',
  };
  // A presenter whose own browser trains nothing while the class runs: the class's progress, not
  // "Ready" (not "Ready" while the class is at step 33).
  const classLine = useLab((s) =>
    s.room.role === 'presenter' && s.room.info && s.room.info.status !== 'open' && s.run.phase === 'idle' && s.room.status === 'online' ? classProgress(s.room.info) : null,
  );
  return (
    <div className="status">
      <div className="status-main" aria-live="polite">
        <span className="status-item phase" data-testid="run-phase" data-phase={run.phase} data-paused={run.paused} data-worker-step={run.workerStep} data-halted={run.halted}>
          {classLine ?? phaseText(run)}
        </span>
        <RunProgressBar run={run} measuring={measuring} />
        <span className="status-item" data-testid="backend-status" title={report?.tried.map((t) => `${t.name}: ${t.ok ? 'ok' : t.error}`).join('\n')}>
          Backend: {backendStatusText(report, run.error, choice)}
        </span>
      </div>
      <details className="run-details" data-testid="run-details">
        <summary data-testid="run-details-toggle">Details</summary>
        <div className="run-details-body">
          {run.phase === 'warmstart' && run.warm && (
            <span className="status-item sub" data-testid="warm-detail">
              Warm start: {fmtPercent(run.warm.fraction)} · {run.warm.etaMs == null ? 'estimating time left' : `${run.warm.target === undefined ? '' : 'at most '}${fmtDuration(run.warm.etaMs)} left`}
            </span>
          )}
          <span className="status-item sub" data-testid="rl-step" data-step={run.step ?? 0} data-received={run.stepsReceived} data-last-metrics={lastMetrics ?? undefined}>
            {fmtRate(rate.stepsPerSec, 'steps/s')} · {fmtRate(rate.tokensPerSec, 'tok/s')} (compute time of the last steps)
          </span>
          {report && bannerText(report, backendFromUrl()) && (
            // Why this backend (forced, or WebGPU unavailable): a figure for the Details, not a banner over the charts.
            <span role="status" className="status-item sub" data-testid="backend-banner">
              {bannerText(report, backendFromUrl())}
            </span>
          )}
          <BackendChoice engine={engine} />
          {probe && (
            <span className="status-item sub" data-testid={probe.ok ? 'probe-result' : 'probe-error'} title="A one-step training probe run when the backend was chosen">
              {probe.ok && probe.lossBefore != null && probe.lossAfter != null
                ? `Probe ok: loss ${probe.lossBefore.toFixed(4)} → ${probe.lossAfter.toFixed(4)} after one step (${probe.ms} ms)`
                : `Probe failed: ${probe.error ?? 'unknown error'}`}
            </span>
          )}
          <StartupTimeline />
          <CohortSummary />
          <div className="run-details-tools">
            <ExportTrlButton />
          </div>
        </div>
      </details>
    </div>
  );
}
