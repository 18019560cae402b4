/**
 * The lab's "Export for GPUs": the experiment on screen as a zip of the TRL project, built by the
 * same builder as `npm run export` (build.ts) from the same Python files.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import { zipStore } from '../zip';
import { buildTrlProject, projectName, type TrlExport } from './build';
import { BROWSER_PYTHON_SOURCES } from './browserSources';

export interface TrlZip {
  /** The zip's file name, e.g. cohort-lab-collapse-trl.zip. */
  fileName: string;
  bytes: Uint8Array;
  export: TrlExport;
}

/** The project as a zip whose entries sit in one folder named after the preset. */
export function buildTrlZip(spec: ExperimentSpec, models: readonly string[], presetId: string | null): TrlZip {
  const built = buildTrlProject(spec, { models, presetId }, BROWSER_PYTHON_SOURCES);
  const folder = projectName(presetId);
  const bytes = zipStore(built.files.map((f) => ({ path: `${folder}/${f.path}`, data: f.text })));
  return { fileName: `${folder}.zip`, bytes, export: built };
}
