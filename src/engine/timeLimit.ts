/**
 * A time limit on work that may never settle: a tfjs backend whose start hangs (for example a
 * wasm build whose worker threads a Content-Security-Policy blocks) leaves its `setBackend`
 * pending for good, and tfjs waits for that pending start before switching to any other backend,
 * so no fallback can follow. The limit turns "detecting…" forever into a message.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** `work`'s outcome, or a rejection with `message` once `ms` have passed (the work is not stopped). */
export function withTimeLimit<T>(work: Promise<T>, ms: number, message: string, timers: Timers = realTimers): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const handle = timers.setTimeout(() => reject(new Error(message)), ms);
    work.then(
      (value) => {
        timers.clearTimeout(handle);
        resolve(value);
      },
      (e: unknown) => {
        timers.clearTimeout(handle);
        reject(e);
      },
    );
  });
}
