/**
 * The Python files of the TRL export. They live as real .py files in ./python (so python3 can
 * compile and test them); the browser reads them with Vite's `?raw` (browserSources.ts) and the
 * CLI with fs (cli/trl/export-sources.ts). Both hand the same texts to the one builder (build.ts).
 */
export const PYTHON_FILES = ['train_cohort.py', 'cohort_rewards.py', 'cohort_plan.py', 'cohort_sampling.py', 'rendezvous.py', 'lab_models.py'] as const;

export type PythonFile = (typeof PYTHON_FILES)[number];

/** File name -> text, for every file in PYTHON_FILES. */
export type PythonSources = Record<PythonFile, string>;

/** Throws when a source is missing or empty (a broken bundle or checkout, not a user error). */
export function checkSources(sources: Partial<Record<string, string>>): PythonSources {
  for (const name of PYTHON_FILES) {
    if (typeof sources[name] !== 'string' || sources[name]!.length === 0) throw new Error(`TRL export: the Python source ${name} is missing`);
  }
  return sources as PythonSources;
}
