/**
 * The Python sources for the browser build, inlined by Vite (`?raw`). Imported only from the
 * export chunk the "Export for GPUs" button loads on demand; Node reads the same files with fs
 * (cli/trl/export-sources.ts), and a test checks the two agree.
 */
import trainCohort from './python/train_cohort.py?raw';
import cohortRewards from './python/cohort_rewards.py?raw';
import cohortPlan from './python/cohort_plan.py?raw';
import cohortSampling from './python/cohort_sampling.py?raw';
import rendezvous from './python/rendezvous.py?raw';
import labModels from './python/lab_models.py?raw';
import type { PythonSources } from './sources';

export const BROWSER_PYTHON_SOURCES: PythonSources = {
  'train_cohort.py': trainCohort,
  'cohort_rewards.py': cohortRewards,
  'cohort_plan.py': cohortPlan,
  'cohort_sampling.py': cohortSampling,
  'rendezvous.py': rendezvous,
  'lab_models.py': labModels,
};
