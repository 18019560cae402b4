/**
 * The saved formats docs/RELIABILITY.md's table lists ("Saved formats"): the version each writes
 * and the versions its migrations start from, read from the code (scripts/docs-figures.ts checks
 * the table against them).
 */
import { BUNDLE_MIGRATIONS, BUNDLE_VERSION } from '../src/share/bundle';
import { REFERENCE_MIGRATIONS, REFERENCE_VERSION } from '../src/share/reference';
import { SHARE_VERSION, MIGRATIONS as SHARE_MIGRATIONS } from '../src/share/url';
import { CHECKPOINT_MIGRATIONS, CHECKPOINT_VERSION } from '../src/core/experiment/checkpoint';
import { RESULT_FILE_MIGRATIONS, RESULT_FILE_VERSION } from '../src/core/experiment/resultFile';
import type { FormatSource } from './docs-figures';

const from = (m: object) => Object.keys(m).map(Number).sort((a, b) => a - b);

export const FORMATS: readonly FormatSource[] = [
  { file: 'src/share/url.ts', version: SHARE_VERSION, migratesFrom: from(SHARE_MIGRATIONS) },
  { file: 'src/share/bundle.ts', version: BUNDLE_VERSION, migratesFrom: from(BUNDLE_MIGRATIONS) },
  { file: 'src/share/reference.ts', version: REFERENCE_VERSION, migratesFrom: from(REFERENCE_MIGRATIONS) },
  { file: 'src/core/experiment/checkpoint.ts', version: CHECKPOINT_VERSION, migratesFrom: from(CHECKPOINT_MIGRATIONS) },
  { file: 'src/core/experiment/resultFile.ts', version: RESULT_FILE_VERSION, migratesFrom: from(RESULT_FILE_MIGRATIONS) },
];
