/**
 * Browser-side backend choice (used inside the Web Worker; works on the main thread too).
 *
 *   const report = await chooseBackend();          // webgpu -> webgl -> wasm -> cpu
 *   const report = await chooseBackend('wasm');    // e.g. from ?backend=wasm; falls back if it fails
 *   const off = onDeviceLost((info) => { ...report, then chooseBackend() again... });
 *
 * `report.backend` is what tfjs actually uses (tf.setBackend returns false on failure without
 * throwing, so every attempt is checked and proven with one op). For Node use node-backend.ts.
 */
import * as tf from '@tensorflow/tfjs'; // registers webgl and cpu
import { getThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
// Without explicit URLs the wasm loader fetches a path the SPA fallback answers with HTML
// ("expected magic word 00 61 73 6d"). Vite fingerprints and serves these three files.
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import {
  type BackendName,
  type BackendReport,
  activateBackend,
  adapterDetails,
  adapterName,
  chooseFrom,
  orderFor,
  registerWebGPU,
  releaseWebGPU,
} from './backend-common';
import { type AdapterFacts, type DeviceFacts, isSoftwareAdapter } from './backendChoice';

export {
  BACKEND_ORDER,
  isBackendName,
  onDeviceLost,
  type AdapterDetails,
  type BackendAttempt,
  type BackendName,
  type BackendReport,
  type DeviceLostInfo,
} from './backend-common';

let wasmPathsSet = false;

function ensureWasmPaths(): void {
  if (wasmPathsSet) return;
  setWasmPaths({
    'tfjs-backend-wasm.wasm': wasmUrl,
    'tfjs-backend-wasm-simd.wasm': wasmSimdUrl,
    'tfjs-backend-wasm-threaded-simd.wasm': wasmThreadedSimdUrl,
  });
  // Threads need cross-origin isolation (COOP/COEP headers, see vite.config.ts); without it the
  // threaded variant cannot start, so ask for the single-threaded one explicitly.
  if (!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated) {
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
  }
  wasmPathsSet = true;
}

async function attempt(name: BackendName) {
  if (name === 'webgpu') {
    const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
    const adapterInfo = await registerWebGPU(gpu);
    await activateBackend('webgpu');
    return { adapterInfo };
  }
  if (name === 'wasm') ensureWasmPaths();
  await activateBackend(name);
  return {};
}

/**
 * Pick and activate a tfjs backend. Order webgpu -> webgl -> wasm -> cpu, or `preferred` first
 * and then the rest of that order. `forcedBy` only words the reason (default `?backend=<name>`).
 * Calling it again (e.g. after a device loss) creates a fresh WebGPU device; tensors and
 * variables on the previous webgpu backend are gone then, so rebuild them (from a checkpoint).
 * Rejects only if no backend works at all (cpu always should).
 */
export async function chooseBackend(
  preferred?: BackendName,
  options: { forcedBy?: string } = {},
): Promise<BackendReport> {
  return chooseFrom({
    order: orderFor(preferred),
    forcedBy: preferred ? (options.forcedBy ?? `?backend=${preferred}`) : undefined,
    attempt,
  });
}

/**
 * Activate `name` (preferred first, then the default order) without calling it forced: the report's
 * reason is null unless a fallback happened. For a backend chosen by measurement or remembered.
 */
export async function useBackend(name: BackendName): Promise<BackendReport> {
  return chooseFrom({ order: orderFor(name), attempt });
}

/**
 * Which wasm build started and how many threads XNNPACK uses: 'threaded simd, 4 threads',
 * 'simd, 1 thread'. The threaded build needs cross-origin isolation; tfjs then uses half the
 * logical cores (navigator.hardwareConcurrency / 2, at most 8), so 1 thread on a 2-core machine.
 */
function wasmDetail(): string | null {
  try {
    const simd = tf.env().getBool('WASM_HAS_SIMD_SUPPORT');
    const threaded = simd && tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT');
    const threads = getThreadsCount();
    return `${threaded ? 'threaded ' : ''}${simd ? 'simd' : 'no simd'}, ${threads} thread${threads === 1 ? '' : 's'}`;
  } catch {
    return null;
  }
}

/** Activate one backend for a measurement: what to show next to it and whether it is emulated. */
export async function activateForMeasurement(name: BackendName): Promise<{ detail: string | null; software: boolean }> {
  const extra = (await attempt(name)) as { adapterInfo?: ReturnType<typeof adapterDetails> };
  if (name === 'webgpu') return { detail: adapterName(extra.adapterInfo), software: isSoftwareAdapter(extra.adapterInfo) };
  if (name === 'wasm') return { detail: wasmDetail(), software: false };
  if (name === 'webgl') {
    const renderer = webglRenderer();
    return { detail: renderer, software: renderer != null && SOFTWARE_RENDERER.test(renderer) };
  }
  return { detail: null, software: false };
}

/** Renderer strings of CPU-emulated WebGL (Chromium's SwiftShader, Mesa's llvmpipe/softpipe, Windows' WARP; docs/TFJS-AND-BROWSER.md). */
const SOFTWARE_RENDERER = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/** The active WebGL backend's renderer ('SwiftShader Device (Subzero)', 'ANGLE (NVIDIA ...)'), if it tells. */
function webglRenderer(): string | null {
  try {
    const gl = (tf.backend() as unknown as { gpgpu?: { gl?: WebGLRenderingContext } }).gpgpu?.gl;
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
    const short = name.match(/swiftshader|llvmpipe|softpipe/i)?.[0];
    return short ? short.toLowerCase() : name.slice(0, 60) || null;
  } catch {
    return null;
  }
}

/**
 * Cut short a WebGPU step that a measurement gave up: switch tfjs to cpu (so nothing re-creates a
 * backend behind our back), then destroy the device, which rejects the pending readback
 * (docs/TFJS-AND-BROWSER.md, "Giving up a step").
 */
export async function abortWebGPUWork(): Promise<void> {
  try {
    await tf.setBackend('cpu');
  } catch {
    /* cpu is always registered */
  }
  releaseWebGPU();
}

export { releaseWebGPU };

/**
 * Free what a backend that is not in use holds: the WebGPU device, or the WebGL context with its
 * textures (a measurement that gave up a step may have left some). webgl stays registered, so a
 * later fallback can still create it afresh. No-op for the active backend, wasm and cpu.
 */
export function releaseBackend(name: BackendName): void {
  if (tf.getBackend() === name) return;
  if (name === 'webgpu') {
    releaseWebGPU();
    return;
  }
  if (name !== 'webgl') return;
  const factory = tf.findBackendFactory('webgl');
  if (!factory || !tf.engine().registry.webgl) return; // never created
  try {
    tf.removeBackend('webgl');
  } finally {
    tf.registerBackend('webgl', factory, 2);
  }
}

let facts: Promise<DeviceFacts> | null = null;

/** This browser and its WebGPU adapter, for the key a measured choice is remembered under. */
export function deviceFacts(): Promise<DeviceFacts> {
  facts ??= (async () => {
    const nav = globalThis.navigator as typeof globalThis.navigator | undefined; // a worker's WorkerNavigator or the page's Navigator (bench.html)
    let adapter: AdapterFacts | null = null;
    try {
      const a = await Promise.race([
        nav?.gpu?.requestAdapter({ powerPreference: 'high-performance' }) ?? Promise.resolve(null),
        new Promise<null>((r) => setTimeout(() => r(null), 10_000)),
      ]);
      const d = a ? adapterDetails(a.info, a) : undefined;
      if (d) adapter = { ...d, isFallbackAdapter: d.isFallbackAdapter ?? false };
    } catch {
      adapter = null;
    }
    return {
      userAgent: nav?.userAgent ?? 'unknown',
      adapter,
      isolated: !!(globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated,
    };
  })();
  return facts;
}
