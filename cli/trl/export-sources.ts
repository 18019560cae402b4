/** The TRL export's Python sources read from the checkout (Node); the browser inlines the same files. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PYTHON_FILES, checkSources, type PythonSources } from '../../src/export/trl/sources';

export const PYTHON_DIR = fileURLToPath(new URL('../../src/export/trl/python/', import.meta.url));

export function nodePythonSources(): PythonSources {
  return checkSources(Object.fromEntries(PYTHON_FILES.map((name) => [name, readFileSync(PYTHON_DIR + name, 'utf8')])));
}
