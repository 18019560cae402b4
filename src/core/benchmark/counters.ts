/**
 * Counting what a tiny model on a real GPU is bound by: tfjs kernels, tfjs readbacks, GPU
 * dispatches, queue submits and buffer readbacks. Pure TypeScript + tfjs (no DOM, no Node
 * imports): the Node bench and the page bench.html share it.
 *
 *   const c = installCounters();        // wraps tf.engine() and, where they exist, the GPU prototypes
 *   ... run something ...
 *   const n = c.snapshot();             // cumulative counts since install
 *   c.uninstall();
 *
 * tfjs level (every backend): every registered kernel runs through `engine.runKernelFunc` (forward
 * and backward; tfjs 4.22), so wrapping that instance method counts kernels exactly. customGrad
 * wrappers pass through it too but carry no kernelName; they are not kernels and are not counted
 * (the kernels inside them are). Readbacks: `t.data()` / `t.array()` go through `engine.read`,
 * `t.dataSync()` / `t.arraySync()` through `engine.readSync`; both are counted (docs/TFJS-AND-BROWSER.md).
 *
 * GPU level: `GPUComputePassEncoder.prototype.dispatchWorkgroups`, `GPUQueue.prototype.submit` and
 * `GPUBuffer.prototype.mapAsync` (READ maps only) for WebGPU, in the browser and in Node (Dawn's
 * `webgpu` package puts the same classes on globalThis); `drawArrays`/`drawElements` and
 * `readPixels`/`getBufferSubData` of the WebGL contexts for webgl. The prototypes are read from
 * globalThis unless passed in. A method is wrapped once even when two counters are installed.
 *
 * Peak tensor bytes: max of tf.memory().numBytes sampled after every kernel (and at install).
 */
import * as tf from '@tensorflow/tfjs';

export interface Counts {
  /** Registered tfjs kernel invocations (runKernelFunc with a kernelName). */
  kernels: number;
  /** tfjs-level reads of tensor data (engine.read + engine.readSync). */
  readbacks: number;
  /** WebGPU dispatchWorkgroups calls, or WebGL draw calls. */
  dispatches: number;
  /** WebGPU queue submits. */
  submits: number;
  /** WebGPU buffer maps for reading (mapAsync with GPUMapMode.READ), or WebGL readPixels/getBufferSubData. */
  gpuReadbacks: number;
  /** Largest tf.memory().numBytes seen since install or the last resetPeak(). */
  peakBytes: number;
}

/** Methods the GPU wrapper patches; each optional (a browser without WebGPU has none of them). */
export interface GpuPrototypes {
  computePass?: { dispatchWorkgroups: (...a: never[]) => unknown };
  queue?: { submit: (...a: never[]) => unknown };
  buffer?: { mapAsync: (...a: never[]) => unknown };
  /** GPUMapMode.READ (1 in every implementation). */
  mapRead?: number;
  /** WebGL(2)RenderingContext prototypes. */
  gl?: object[];
}

export interface Counter {
  /** Cumulative counts since install (a fresh object). */
  snapshot(): Counts;
  /** Kernel invocations by kernel name since install (a fresh map). */
  kernelNames(): Map<string, number>;
  /** Restart the peak at the current tf.memory().numBytes. */
  resetPeak(): void;
  /** Undo the wrapping (idempotent). */
  uninstall(): void;
}

/** The GPU prototypes of this global scope (window, worker or Node after Dawn is loaded). */
export function gpuPrototypesFrom(scope: object = globalThis): GpuPrototypes {
  const g = scope as Record<string, { prototype?: object; READ?: number } | undefined>;
  const proto = (name: string) => g[name]?.prototype as Record<string, unknown> | undefined;
  const has = (p: Record<string, unknown> | undefined, m: string) => (p && typeof p[m] === 'function' ? p : undefined);
  const gl = ['WebGLRenderingContext', 'WebGL2RenderingContext'].map(proto).filter((p): p is Record<string, unknown> => !!p);
  return {
    computePass: has(proto('GPUComputePassEncoder'), 'dispatchWorkgroups') as GpuPrototypes['computePass'],
    queue: has(proto('GPUQueue'), 'submit') as GpuPrototypes['queue'],
    buffer: has(proto('GPUBuffer'), 'mapAsync') as GpuPrototypes['buffer'],
    mapRead: g['GPUMapMode']?.READ ?? 1,
    gl,
  };
}

type Sink = (what: keyof Omit<Counts, 'peakBytes'>, arg?: unknown) => void;
/** Called after the wrapped method returned (synchronously: a promise result is not awaited). */
type Hook = (sinks: Set<Sink>, args: unknown[]) => void;

/**
 * One wrapper per (object, method), shared by all installed counters: each counter adds a sink and
 * the original is restored when the last sink goes. Keeps nested installs (a test inside a bench)
 * from double counting or restoring the wrong function.
 */
const WRAPS = new Map<object, Map<string, { original: unknown; own: boolean; sinks: Set<Sink> }>>();

function wrap(target: object, method: string, sink: Sink, hook: Hook): () => void {
  let byMethod = WRAPS.get(target);
  if (!byMethod) WRAPS.set(target, (byMethod = new Map()));
  let entry = byMethod.get(method);
  if (!entry) {
    const original = (target as Record<string, unknown>)[method];
    if (typeof original !== 'function') return () => {};
    const own = Object.prototype.hasOwnProperty.call(target, method);
    const sinks = new Set<Sink>();
    entry = { original, own, sinks };
    const fn = original as (...a: unknown[]) => unknown;
    const wrapped = function (this: unknown, ...args: unknown[]) {
      const result = fn.apply(this, args);
      hook(sinks, args);
      return result;
    };
    Object.defineProperty(target, method, { value: wrapped, configurable: true, writable: true, enumerable: false });
    byMethod.set(method, entry);
  }
  entry.sinks.add(sink);
  const e = entry;
  const m = byMethod;
  return () => {
    if (!e.sinks.delete(sink) || e.sinks.size > 0) return;
    if (e.own) Object.defineProperty(target, method, { value: e.original, configurable: true, writable: true, enumerable: false });
    else delete (target as Record<string, unknown>)[method];
    m.delete(method);
  };
}

export interface CounterOptions {
  /** GPU prototypes to wrap (default: those on globalThis); null wraps none. */
  gpu?: GpuPrototypes | null;
}

export function installCounters(opts: CounterOptions = {}): Counter {
  const counts: Counts = { kernels: 0, readbacks: 0, dispatches: 0, submits: 0, gpuReadbacks: 0, peakBytes: tf.memory().numBytes };
  const names = new Map<string, number>();
  const sink: Sink = (what, arg) => {
    counts[what]++;
    if (what === 'kernels') {
      const name = String(arg);
      names.set(name, (names.get(name) ?? 0) + 1);
      const bytes = tf.memory().numBytes;
      if (bytes > counts.peakBytes) counts.peakBytes = bytes;
    }
  };
  const count = (what: keyof Omit<Counts, 'peakBytes'>): Hook => (sinks) => sinks.forEach((s) => s(what));
  const undo: (() => void)[] = [];

  // Counted after the kernel returned, so the peak includes its outputs.
  const engine = tf.engine();
  undo.push(
    wrap(engine, 'runKernelFunc', sink, (sinks, args) => {
      const name = (args[0] as { kernelName?: string } | undefined)?.kernelName;
      if (name !== undefined) sinks.forEach((s) => s('kernels', name));
    }),
  );
  undo.push(wrap(engine, 'read', sink, count('readbacks')));
  undo.push(wrap(engine, 'readSync', sink, count('readbacks')));

  const gpu = opts.gpu === undefined ? gpuPrototypesFrom() : opts.gpu;
  if (gpu) {
    if (gpu.computePass) undo.push(wrap(gpu.computePass, 'dispatchWorkgroups', sink, count('dispatches')));
    if (gpu.queue) undo.push(wrap(gpu.queue, 'submit', sink, count('submits')));
    const read = gpu.mapRead ?? 1;
    if (gpu.buffer) {
      undo.push(
        wrap(gpu.buffer, 'mapAsync', sink, (sinks, args) => {
          if ((Number(args[0]) & read) !== 0) sinks.forEach((s) => s('gpuReadbacks'));
        }),
      );
    }
    for (const p of gpu.gl ?? []) {
      undo.push(wrap(p, 'drawArrays', sink, count('dispatches')));
      undo.push(wrap(p, 'drawElements', sink, count('dispatches')));
      undo.push(wrap(p, 'readPixels', sink, count('gpuReadbacks')));
      undo.push(wrap(p, 'getBufferSubData', sink, count('gpuReadbacks')));
    }
  }

  let installed = true;
  return {
    snapshot: () => ({ ...counts }),
    kernelNames: () => new Map(names),
    resetPeak: () => {
      counts.peakBytes = tf.memory().numBytes;
    },
    uninstall: () => {
      if (!installed) return;
      installed = false;
      for (const u of undo.reverse()) u();
    },
  };
}
