import type { BackendReport } from '../../engine/protocol';

/**
 * The run bar's backend item: the backend (and its adapter) once the worker has reported one;
 * before that "detecting…", or "none started" once an error came first (every backend failed,
 * or their start hung past the worker's time limit): the error itself is shown beside it.
 */
export function backendStatusText(report: BackendReport | null, error: { message: string } | null): string {
  if (report) return report.adapter ? `${report.backend} (${report.adapter})` : report.backend;
  return error ? 'none started' : 'detecting…';
}
