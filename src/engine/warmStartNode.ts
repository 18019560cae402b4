/**
 * Stored warm starts in Node (CLI, tests): a WarmStartCache over folders of warm-start files named
 * `<key>.json` (public/warmstarts holds the shipped ones; warmStartCache.ts has the format).
 *
 *   const cache = nodeWarmStartCache();                         // reads public/warmstarts
 *   const cache = nodeWarmStartCache({ saveDir: '.warmstarts' }); // also keeps what runs train
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  KEY_PATTERN,
  MAX_WARM_START_CHARS,
  WarmStartFileError,
  parseWarmStartText,
  serializeWarmStartFile,
  type WarmStartCache,
  type WarmStartFile,
} from '../core/experiment/warmStartCache';

/** The repository's public/warmstarts (served by Vite at /warmstarts/). */
export const SHIPPED_WARM_START_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../public/warmstarts');
/** The rooms' seeds' warm starts (src/core/experiment/roomSeeds.ts), served at /warmstarts/room/, not precached. */
export const ROOM_WARM_START_DIR = join(SHIPPED_WARM_START_DIR, 'room');

export interface NodeWarmStartCacheOptions {
  /** Folders read, in order (default: the shipped folder, then the rooms' seeds' one). */
  dirs?: string[];
  /** Where `save` writes (and which is read first); without it `save` keeps nothing. */
  saveDir?: string;
}

export function warmStartFileName(key: string): string {
  if (!KEY_PATTERN.test(key)) throw new WarmStartFileError(`"${key.slice(0, 40)}" is not a warm-start key`);
  return `${key}.json`;
}

/** Read one warm-start file from disk (untrusted: size-checked, then parsed and validated). */
export function readWarmStartFile(path: string): WarmStartFile {
  const size = statSync(path).size;
  if (size > MAX_WARM_START_CHARS) throw new WarmStartFileError(`${path} is ${size} bytes; the limit is ${MAX_WARM_START_CHARS}`);
  try {
    return parseWarmStartText(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof WarmStartFileError) throw new WarmStartFileError(`${path}: ${e.message}`);
    throw e;
  }
}

/** Write atomically (a temporary file, then a rename): a reader never sees half a file. */
export function writeWarmStartFile(dir: string, file: WarmStartFile): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, warmStartFileName(file.key));
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, serializeWarmStartFile(file));
  renameSync(tmp, path);
  return path;
}

export function nodeWarmStartCache(opts: NodeWarmStartCacheOptions = {}): WarmStartCache {
  const dirs = [...(opts.saveDir ? [opts.saveDir] : []), ...(opts.dirs ?? [SHIPPED_WARM_START_DIR, ROOM_WARM_START_DIR])];
  return {
    async load(key) {
      if (!KEY_PATTERN.test(key)) return null;
      for (const dir of dirs) {
        const path = join(dir, warmStartFileName(key));
        if (existsSync(path)) return readWarmStartFile(path);
      }
      return null;
    },
    async save(file) {
      if (opts.saveDir) writeWarmStartFile(opts.saveDir, file);
    },
  };
}
