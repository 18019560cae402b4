/**
 * Where the seconds between Start and the first RL step went (the store's StartupTimeline), in
 * the run's Details: so a slow start on a student's laptop is explainable. Each phase is shown with
 * the time it took since the one before; `data-timeline` carries the marks for the page benchmark.
 */
import { useLab } from '../store';
import { STARTUP_WORDS } from '../store/progress';

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function StartupTimeline() {
  const t = useLab((s) => s.run.startup);
  if (!t || t.marks.length === 0) return null;
  let before = 0;
  return (
    <div className="status-item sub startup-timeline" data-testid="startup-timeline" data-timeline={JSON.stringify(t)}>
      <span>Start-up{t.openToStartMs === null ? '' : ` (Start pressed ${seconds(t.openToStartMs)} after the page opened)`}:</span>
      <ol>
        {t.marks.map((m) => {
          const took = m.atMs - before;
          before = m.atMs;
          return (
            <li key={m.phase} data-phase={m.phase}>
              {STARTUP_WORDS[m.phase]}: +{seconds(took)} (at {seconds(m.atMs)})
            </li>
          );
        })}
      </ol>
    </div>
  );
}
