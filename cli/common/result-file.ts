/**
 * Reading a result file from disk, as every CLI does (science --from and --table, figures,
 * references): through src/core/experiment/resultFile.ts parseResultFile, so an older version is
 * migrated and a bad file is one line that names it. Each CLI exits on it as on its other errors.
 */
import { readFileSync, statSync } from 'node:fs';
import { MAX_RESULT_FILE_CHARS, parseResultFile, type ParseResultFile } from '../../src/core/experiment/resultFile';

/** The file, or one line naming it and saying what is wrong. */
export function readResultFile(path: string): ParseResultFile {
  let text: string;
  try {
    if (statSync(path).size > MAX_RESULT_FILE_CHARS) return { ok: false, error: `${path} is larger than ${MAX_RESULT_FILE_CHARS / 1024 / 1024} MiB, not a result file` };
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return { ok: false, error: `cannot read ${path}: ${(e as Error).message.split('\n')[0]}` };
  }
  const r = parseResultFile(text);
  return r.ok ? r : { ok: false, error: `${path} is not a result file this version reads: ${r.error}` };
}
