/**
 * "Run N seeds" next to Start: the experiment over N seeds (2-8), one after another (seedRuns.ts),
 * with the progress "seed 2 of 3". Enabled exactly when Start is.
 */
import { useState } from 'react';
import { useLab } from '../store';
import { DEFAULT_SEEDS, MAX_SEEDS, MIN_SEEDS, clampSeeds } from '../store/seedsSlice';
import { seedRuns } from '../seedRuns';

export function SeedsControl({ disabledReason }: { disabledReason: string | null }) {
  const [count, setCount] = useState(DEFAULT_SEEDS);
  const plan = useLab((s) => s.seeds.plan);
  const finished = useLab((s) => s.seeds.results.length);
  const seed = useLab((s) => s.run.spec?.seed ?? null);
  const n = clampSeeds(count);
  return (
    <span className="seeds-control" role="group" aria-label="Run several seeds">
      <label className="field-inline" htmlFor="seeds-count" title={`How many seeds, ${MIN_SEEDS} to ${MAX_SEEDS}: the experiment's seed, then the next ones`}>
        Seeds
      </label>
      <input
        id="seeds-count"
        type="number"
        min={MIN_SEEDS}
        max={MAX_SEEDS}
        step={1}
        value={count}
        data-testid="seeds-count"
        onChange={(e) => setCount(e.target.value === '' ? DEFAULT_SEEDS : Number(e.target.value))}
        onBlur={() => setCount(n)}
      />
      <button
        type="button"
        disabled={disabledReason != null}
        title={disabledReason ?? `Train the experiment ${n} times, one seed after another, and draw the mean and spread of the seeds`}
        data-testid="run-seeds"
        onClick={() => seedRuns.start(n)}
      >
        Run {n} seeds
      </button>
      {plan ? (
        <span className="status-item seeds-progress" role="status" data-testid="seeds-progress" data-index={plan.index + 1} data-count={plan.count} data-finished={finished}>
          seed {plan.index + 1} of {plan.count}
          {seed != null && plan.runId !== 0 ? ` (seed ${seed})` : ''}
        </span>
      ) : finished > 0 ? (
        <span className="status-item seeds-progress" role="status" data-testid="seeds-progress" data-index="" data-count={finished} data-finished={finished}>
          {finished} seed{finished === 1 ? '' : 's'} done
        </span>
      ) : null}
    </span>
  );
}
