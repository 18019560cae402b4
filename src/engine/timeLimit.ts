/**
 * A time limit on work that may never settle: a WebGPU adapter or device request that does not
 * answer, or a tfjs backend whose start hangs (for example a wasm build whose worker threads a
 * Content-Security-Policy blocks: tfjs then waits for that pending start before switching to any
 * other backend, so no fallback can follow). The limit turns waiting for ever into a message.
 */

/** `work`'s outcome, or a rejection with `message` once `ms` have passed (the work is not stopped). */
export function withTimeLimit<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}
