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
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
// Without explicit URLs the wasm loader fetches a path the SPA fallback answers with HTML
// ("expected magic word 00 61 73 6d"). Vite fingerprints and serves these three files.
import wasmUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm?url';
import wasmSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm?url';
import wasmThreadedSimdUrl from '@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-threaded-simd.wasm?url';
import {
  type BackendName,
  type BackendReport,
  activateBackend,
  chooseFrom,
  orderFor,
  registerWebGPU,
} from './backend-common';

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
