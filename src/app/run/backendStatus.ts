import type { BackendReport } from '../../engine/protocol';
import type { EngineState } from '../store/runSlice';

/** What the page knows of how the backend for the next run is chosen (null: nothing to add). */
export interface BackendChoiceView {
  /** ?backend= forces one: the backend loaded is the one that runs. */
  forced: boolean;
  /** The worker's measurement event, as the store keeps it. */
  measurement: EngineState['measurement'];
  /** The cohort signature (engine/backendChoice.ts) of the experiment Start would run; null when the draft is not valid. */
  signature: string | null;
  /** The run is between Start and its first step (the worker may be measuring). */
  starting: boolean;
}

/**
 * The run bar's backend item: the backend (and its adapter) once the worker has reported one;
 * before that "detecting…", or "none started" once an error came first (every backend failed,
 * or their start hung past the worker's time limit): the error itself is shown beside it.
 *
 * The item read "webgl" until Start, then "wasm": the page loads one backend, but an
 * unforced Start times each that could win on the run's cohort and trains on the fastest (engine/measuredChoice.ts).
 * So it names the backend that will run only when that is known (forced, or measured or
 * remembered for this cohort), says it is choosing while the worker times them, and otherwise
 * says the one loaded is kept only until Start.
 */
export function backendStatusText(report: BackendReport | null, error: { message: string } | null, choice?: BackendChoiceView): string {
  if (!report) return error ? 'none started' : 'detecting…';
  const loaded = report.adapter ? `${report.backend} (${report.adapter})` : report.backend;
  if (!choice || choice.forced) return loaded;
  const m = choice.measurement;
  if (m?.status === 'measuring') return 'choosing: timing one step on each backend…';
  const forThis = m != null && m.chosen != null && choice.signature != null && m.key.endsWith(`|cohort=${choice.signature}`);
  if (forThis) return m.chosen === report.backend ? loaded : m.chosen!;
  if (choice.starting) return 'choosing…';
  return `${loaded} until Start, which times each backend and keeps the fastest`;
}
