/**
 * The measured backend choices this browser remembers (localStorage: workers have none), so a
 * reload does not measure again. The worker decides whether one applies (its key holds the user
 * agent, the WebGPU adapter and the cohort shape); the page only stores and hands them back.
 * Storage may be missing, full or disabled: then nothing is remembered and nothing breaks.
 */
import { type BackendChoiceRecord, readRemembered, withRemembered } from '../engine/backendChoice';

export const BACKEND_MEMORY_KEY = 'cohort-lab.backend-choice.v1';

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null; // e.g. a sandboxed frame
  }
}

/** The remembered choices, newest first (malformed entries dropped). */
export function loadRememberedChoices(store: Storage | null = storage()): BackendChoiceRecord[] {
  if (!store) return [];
  try {
    const raw = store.getItem(BACKEND_MEMORY_KEY);
    return raw ? readRemembered(JSON.parse(raw)) : [];
  } catch {
    return [];
  }
}

/** Remember `record` (replacing an older one with its key). */
export function rememberChoice(record: BackendChoiceRecord, store: Storage | null = storage()): void {
  if (!store) return;
  try {
    store.setItem(BACKEND_MEMORY_KEY, JSON.stringify(withRemembered(loadRememberedChoices(store), record)));
  } catch {
    /* quota or disabled storage: measured again next time */
  }
}
