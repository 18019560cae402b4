/**
 * What the service worker has told the page, as a tiny external store (React reads it with
 * useSyncExternalStore in PwaNotices.tsx): ready to work offline, or a new version waiting.
 * Pure: register.ts writes it, tests drive it directly.
 */
export interface PwaStatus {
  /** The app is cached: the page reloads and trains with the network off. */
  offlineReady: boolean;
  /** A new version is installed and waits for a reload. */
  updateReady: boolean;
}

const INITIAL: PwaStatus = { offlineReady: false, updateReady: false };

let status: PwaStatus = INITIAL;
let applyUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

export function getPwaStatus(): PwaStatus {
  return status;
}

export function setPwaStatus(patch: Partial<PwaStatus>): void {
  status = { ...status, ...patch };
  for (const l of listeners) l();
}

export function subscribePwaStatus(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** What "Reload" does when a new version waits (register.ts: activate it, then reload). */
export function setUpdateAction(action: (() => void) | null): void {
  applyUpdate = action;
}

/** Switch to the waiting version; false when there is none to switch to. */
export function applyPwaUpdate(): boolean {
  if (!status.updateReady || !applyUpdate) return false;
  applyUpdate();
  return true;
}

/** Back to a page without a service worker (tests). */
export function resetPwaStatus(): void {
  status = INITIAL;
  applyUpdate = null;
  for (const l of listeners) l();
}
