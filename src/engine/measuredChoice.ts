/**
 * The worker's side of choosing the backend by measurement (training.worker.ts calls these):
 *
 *   prepare (page load): the choice the page remembered for this device and the cohort on screen,
 *                        if any (`rememberedBackendFor`), else the default order as before.
 *   start (not forced):  the remembered choice for the run's cohort, else time one RL step on
 *                        wasm, webgl and webgpu (measureBackends.ts), train on the fastest
 *                        (backendChoice.ts), and post the figures so the page shows and stores them.
 *
 * Backend changes are serialised (a second Start waits for the first one's measurement and then
 * reuses it). Choices measured here are also kept for the worker's lifetime, so a page that
 * cannot store them still measures once per cohort shape.
 */
import type { ExperimentSpec } from '../core/experiment/spec';
import {
  type BackendName,
  type BackendReport,
  abortWebGPUWork,
  activateForMeasurement,
  chooseBackend,
  deviceFacts,
  releaseBackend,
  useBackend,
} from './backend';
import {
  type BackendChoiceRecord,
  type MeasuredRow,
  MEASURED_BACKENDS,
  chooseMeasured,
  choiceKey,
  cohortSignature,
  planBackend,
  readRemembered,
  withRemembered,
} from './backendChoice';
import { measureBackends } from './measureBackends';
import type { ProbeOutcome, WorkerCommand, WorkerEvent } from './protocol';

type Post = (e: WorkerEvent) => void;

/** Choices made in this worker, newest first. */
let session: BackendChoiceRecord[] = [];
let lock: Promise<unknown> = Promise.resolve();

function serial<T>(fn: () => Promise<T>): Promise<T> {
  const p = lock.then(fn, fn);
  lock = p.catch(() => undefined);
  return p;
}

async function keyFor(signature: string): Promise<string> {
  return choiceKey(await deviceFacts(), signature);
}

function measurementEvent(
  status: 'measuring' | 'measured' | 'remembered',
  key: string,
  rows: readonly MeasuredRow[],
  extra: Partial<Pick<Extract<WorkerEvent, { type: 'measurement' }>, 'current' | 'chosen' | 'reason' | 'measuredAt'>> = {},
): WorkerEvent {
  return { type: 'measurement', status, key, rows: rows.map((r) => ({ ...r })), current: null, chosen: null, reason: null, measuredAt: null, ...extra };
}

function rememberedEvent(record: BackendChoiceRecord): WorkerEvent {
  return measurementEvent('remembered', record.key, record.rows, { chosen: record.chosen, reason: record.reason, measuredAt: record.measuredAt });
}

/**
 * For a `prepare` command: activates the backend remembered for the cohort on screen and says so,
 * or resolves null (nothing remembered for this key: the caller uses the default order).
 */
export function rememberedBackendFor(cmd: Extract<WorkerCommand, { type: 'prepare' }>): ((post: Post) => Promise<BackendReport | null>) | null {
  const list = readRemembered(cmd.remembered);
  const signature = cmd.signature;
  if (!signature || list.length === 0) return null;
  return (post) =>
    serial(async () => {
      const key = await keyFor(signature);
      const plan = planBackend({ key, remembered: [...session, ...list] });
      if (plan.kind !== 'remembered') return null;
      const report = await useBackend(plan.record.chosen);
      if (report.backend !== plan.record.chosen) return report; // it no longer starts: Start measures again
      for (const name of MEASURED_BACKENDS) releaseBackend(name);
      session = withRemembered(session, plan.record);
      post(rememberedEvent(plan.record));
      return report;
    });
}

export interface RunChoiceContext {
  /** The backend in use now. */
  current: BackendReport;
  /** The run this choice is for was stopped or replaced. */
  cancelled(): boolean;
  /** The previous run holds no tensors any more (checked before backends are switched). */
  previousReleased(): boolean;
  post: Post;
  probe(): Promise<ProbeOutcome>;
  /** The ?backend= warning to repeat in the backend event. */
  warning: string | null;
}

async function waitFor(pred: () => boolean, ms: number): Promise<void> {
  const t0 = performance.now();
  while (!pred() && performance.now() - t0 < ms) await new Promise((r) => setTimeout(r, 20));
}

/** The backend to run `spec` on when ?backend= does not force one (see the file comment). */
export function chooseBackendForRun(spec: ExperimentSpec, remembered: unknown, ctx: RunChoiceContext): Promise<BackendReport> {
  return serial(async () => {
    const key = await keyFor(cohortSignature(spec));
    const plan = planBackend({ key, remembered: [...session, ...readRemembered(remembered)] });
    const announce = async (report: BackendReport) => {
      const outcome = await ctx.probe();
      ctx.post({ type: 'backend', report, probe: outcome, warning: ctx.warning, deviceLost: null });
    };

    if (plan.kind === 'remembered') {
      const chosen = plan.record.chosen;
      if (ctx.current.backend === chosen) {
        session = withRemembered(session, plan.record);
        ctx.post(rememberedEvent(plan.record));
        return ctx.current;
      }
      await waitFor(ctx.previousReleased, 30_000);
      const report = await useBackend(chosen);
      if (report.backend === chosen) {
        for (const name of MEASURED_BACKENDS) releaseBackend(name);
        session = withRemembered(session, plan.record);
        ctx.post(rememberedEvent(plan.record));
        await announce(report);
        return report;
      }
      // The remembered backend no longer starts: measure again.
    }
    if (ctx.cancelled()) return ctx.current;

    await waitFor(ctx.previousReleased, 30_000);
    const rows = await measureBackends(spec, MEASURED_BACKENDS, {
      activate: activateForMeasurement,
      abort: (name) => (name === 'webgpu' ? abortWebGPUWork() : undefined),
      onProgress: (done, current) => {
        if (current) ctx.post(measurementEvent('measuring', key, done, { current }));
      },
      cancelled: ctx.cancelled,
    });

    let chosen: BackendName | null = null;
    let reason: string;
    if (ctx.cancelled()) {
      reason = 'measurement interrupted';
    } else {
      ({ chosen, reason } = chooseMeasured(rows));
    }
    const report = chosen ? await useBackend(chosen) : ctx.cancelled() ? await useBackend(ctx.current.backend as BackendName) : await chooseBackend();
    // The losers' devices and contexts (and anything a given-up step left on them) are freed.
    for (const name of MEASURED_BACKENDS) releaseBackend(name);
    // WebGPU missing altogether: keep saying so, as the default order does.
    const gpu = rows.find((r) => r.backend === 'webgpu');
    if (gpu?.status === 'failed' && report.backend !== 'webgpu' && report.reason == null) {
      report.tried = [{ name: 'webgpu', ok: false, error: gpu.note ?? 'unavailable' }, ...report.tried];
      report.reason = gpu.note ?? 'WebGPU unavailable';
    }
    const measuredAt = Date.now();
    if (chosen && report.backend === chosen) {
      session = withRemembered(session, { key, chosen, reason, rows, measuredAt });
    } else if (chosen) {
      reason = `${chosen} was fastest but did not start again`;
      chosen = null;
    }
    ctx.post(measurementEvent('measured', key, rows, { chosen, reason, measuredAt }));
    await announce(report);
    return report;
  });
}
