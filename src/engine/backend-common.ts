/**
 * Backend choice shared by the browser worker (backend.ts) and Node (node-backend.ts).
 *
 * Nothing here imports Vite-only (`?url`) or Node-only (`webgpu`, `fs`) modules, so both sides can
 * use it. The webgpu backend is always registered from a device we create ourselves, so that we
 * can watch `device.lost` (tfjs 4.22 does not) and re-create it later (docs/TFJS-AND-BROWSER.md).
 */
import * as tf from '@tensorflow/tfjs';
import { withTimeLimit } from './timeLimit';
import { installWasmKernels } from './wasmKernels';

export type BackendName = 'webgpu' | 'webgl' | 'wasm' | 'cpu';

/** Default preference: fastest-in-principle first, always-works last. */
export const BACKEND_ORDER: readonly BackendName[] = ['webgpu', 'webgl', 'wasm', 'cpu'];

export function isBackendName(x: unknown): x is BackendName {
  return typeof x === 'string' && (BACKEND_ORDER as readonly string[]).includes(x);
}

export interface BackendAttempt {
  name: BackendName;
  ok: boolean;
  error?: string;
}

export interface AdapterDetails {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  /** A fallback (software) adapter, e.g. SwiftShader; absent where the browser does not say. */
  isFallbackAdapter?: boolean;
}

export interface BackendReport {
  /** The backend actually in use (tf.getBackend() after the choice). */
  backend: string;
  /** Short adapter name for webgpu (e.g. 'swiftshader'), null otherwise. */
  adapter: string | null;
  /** Why the first choice is not in use (fallback or forced), null when it is. */
  reason: string | null;
  /** Every backend tried, in order. */
  tried: BackendAttempt[];
  /** Full GPUAdapterInfo fields for webgpu; absent otherwise. */
  adapterInfo?: AdapterDetails;
}

export interface DeviceLostInfo {
  /** GPUDeviceLostInfo.reason ('destroyed' | 'unknown'). */
  reason: string;
  message: string;
  adapter: string | null;
}

type DeviceLostListener = (info: DeviceLostInfo) => void;

const lostListeners = new Set<DeviceLostListener>();

/**
 * Subscribe to the loss of the webgpu device currently registered with tfjs. Returns an
 * unsubscribe function. After a loss every tensor on that backend is gone: dispose what you hold,
 * call chooseBackend()/initNodeBackend() again (it creates a fresh device or falls back) and
 * rebuild state from a checkpoint.
 */
export function onDeviceLost(callback: DeviceLostListener): () => void {
  lostListeners.add(callback);
  return () => {
    lostListeners.delete(callback);
  };
}

/** The device we registered last; losses of older (replaced) devices are not reported. */
let currentDevice: GPUDevice | null = null;

/** The WebGPU device's largest storage binding (the largest tensor it holds), when one is up. */
export function webgpuBindingLimit(): number | undefined {
  return currentDevice?.limits.maxStorageBufferBindingSize;
}
const intentionallyDestroyed = new WeakSet<GPUDevice>();

export function errorText(e: unknown): string {
  // A warm-start miss in a student's words (warmStartCohort.ts), never a spec field.
  if (e instanceof Error && e.name === 'WarmStartMissError' && typeof (e as { plain?: unknown }).plain === 'string') return (e as unknown as { plain: string }).plain;
  if (e instanceof Error) return e.message || e.name;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

export function adapterDetails(info: GPUAdapterInfo | undefined | null, adapter?: GPUAdapter | null): AdapterDetails | undefined {
  if (!info) return undefined;
  const details: AdapterDetails = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
  };
  // GPUAdapterInfo.isFallbackAdapter in current browsers, GPUAdapter.isFallbackAdapter in older ones.
  const fallback = (info as { isFallbackAdapter?: unknown }).isFallbackAdapter ?? (adapter as { isFallbackAdapter?: unknown } | null | undefined)?.isFallbackAdapter;
  if (typeof fallback === 'boolean') details.isFallbackAdapter = fallback;
  return details;
}

/** 'swiftshader', 'nvidia', ...: the most telling non-empty field of the adapter info. */
export function adapterName(info: AdapterDetails | undefined): string | null {
  if (!info) return null;
  return info.architecture || info.vendor || info.description || info.device || null;
}

/** `p`, or a rejection naming `what` after `ms` (timeLimit.ts). */
const withTimeout = <T>(p: Promise<T>, ms: number, what: string): Promise<T> => withTimeLimit(p, ms, `${what} timed out after ${ms} ms`);

/** Thrown by the attempt functions with the exact text to report as the fallback reason. */
export class BackendUnavailable extends Error {}

/**
 * Create a WebGPU device on `gpu`, watch its loss and register it with tfjs as 'webgpu'
 * (replacing whatever 'webgpu' factory was registered before). Does not switch to it.
 */
export async function registerWebGPU(gpu: GPU | undefined | null): Promise<AdapterDetails | undefined> {
  if (!gpu) {
    throw new BackendUnavailable('navigator.gpu is missing (WebGPU not available in this browser)');
  }
  const adapter = await withTimeout(
    gpu.requestAdapter({ powerPreference: 'high-performance' }),
    15_000,
    'requestAdapter',
  );
  if (!adapter) throw new BackendUnavailable('no WebGPU adapter');

  // Same features and limits as tfjs-backend-webgpu's own factory (base.ts), so kernels that
  // size their dispatch from the limits behave the same.
  const requiredFeatures: GPUFeatureName[] = [];
  if (adapter.features.has('timestamp-query')) requiredFeatures.push('timestamp-query');
  const l = adapter.limits;
  const device = await withTimeout(
    adapter.requestDevice({
      requiredFeatures,
      requiredLimits: {
        maxComputeWorkgroupStorageSize: l.maxComputeWorkgroupStorageSize,
        maxComputeWorkgroupsPerDimension: l.maxComputeWorkgroupsPerDimension,
        maxStorageBufferBindingSize: l.maxStorageBufferBindingSize,
        maxBufferSize: l.maxBufferSize,
        maxComputeWorkgroupSizeX: l.maxComputeWorkgroupSizeX,
        maxComputeInvocationsPerWorkgroup: l.maxComputeInvocationsPerWorkgroup,
      },
    }),
    15_000,
    'requestDevice',
  );
  const info = adapterDetails(adapter.info, adapter);
  const name = adapterName(info);

  void device.lost.then((lost) => {
    if (device !== currentDevice || intentionallyDestroyed.has(device)) return;
    currentDevice = null;
    const event: DeviceLostInfo = { reason: String(lost.reason), message: lost.message, adapter: name };
    for (const cb of [...lostListeners]) {
      try {
        cb(event);
      } catch (e) {
        console.warn('onDeviceLost listener threw:', e);
      }
    }
  });

  const { WebGPUBackend } = await import('@tensorflow/tfjs-backend-webgpu');
  // Disposing a backend whose device is already lost can throw; removeBackend() would then leave
  // the tfjs registry half-updated, so swallow errors there.
  class RecoverableWebGPUBackend extends WebGPUBackend {
    override dispose(): void {
      try {
        super.dispose();
      } catch {
        /* device already gone */
      }
    }
  }

  const previous = currentDevice;
  if (tf.findBackendFactory('webgpu') != null) tf.removeBackend('webgpu');
  if (previous && previous !== device) {
    intentionallyDestroyed.add(previous);
    try {
      previous.destroy();
    } catch {
      /* already lost */
    }
  }
  currentDevice = device;
  tf.registerBackend('webgpu', () => new RecoverableWebGPUBackend(device, adapter.info), 3);
  return info;
}

/**
 * Destroy the current WebGPU device as a driver reset would: reported to onDeviceLost listeners
 * like a real loss. For fault tests only (e2e/lab.spec.ts, through the worker's cohortLabFaults).
 */
export function destroyDeviceForTesting(): boolean {
  if (!currentDevice) return false;
  currentDevice.destroy();
  return true;
}

/**
 * Unregister the webgpu backend and destroy its device (not reported as a loss). tfjs must
 * already be on another backend, or it will pick one on the next op.
 */
export function releaseWebGPU(): void {
  if (tf.findBackendFactory('webgpu') != null) tf.removeBackend('webgpu');
  const device = currentDevice;
  currentDevice = null;
  if (device) {
    intentionallyDestroyed.add(device);
    try {
      device.destroy();
    } catch {
      /* already lost */
    }
  }
}

/**
 * `tf.setBackend(name)` returns false (and tfjs silently keeps another backend) on failure; this
 * throws instead, and runs one tiny op with an async readback to prove the backend computes
 * (docs/TFJS-AND-BROWSER.md, "Choosing a backend").
 */
export async function activateBackend(name: BackendName): Promise<void> {
  if (name === 'wasm') installWasmKernels(); // Slice without copying its whole input (wasmKernels.ts)
  let ok: boolean;
  try {
    ok = await tf.setBackend(name);
  } catch (e) {
    throw new BackendUnavailable(`setBackend(${name}) failed: ${errorText(e)}`);
  }
  if (!ok) throw new BackendUnavailable(`setBackend(${name}) failed: returned false`);
  await tf.ready();
  if (tf.getBackend() !== name) {
    throw new BackendUnavailable(`setBackend(${name}) failed: tfjs is using ${tf.getBackend()}`);
  }
  const t = tf.tidy(() => tf.add(tf.scalar(1), tf.scalar(2)));
  try {
    const [v] = await t.data();
    if (v !== 3) throw new BackendUnavailable(`setBackend(${name}) failed: 1 + 2 gave ${v}`);
  } catch (e) {
    if (e instanceof BackendUnavailable) throw e;
    throw new BackendUnavailable(`setBackend(${name}) failed: first computation: ${errorText(e)}`);
  } finally {
    t.dispose();
  }
}

export interface ChooseOptions {
  /** Backends in the order to try them. */
  order: readonly BackendName[];
  /** How the first entry was requested, for the reason text (e.g. '?backend=wasm'). */
  forcedBy?: string;
  /** Set up and activate one backend; throw (ideally BackendUnavailable) when it is unusable. */
  attempt: (name: BackendName) => Promise<{ adapterInfo?: AdapterDetails } | void>;
}

/** Try backends in order; the report names the one in use and why the first one is not. */
export async function chooseFrom(opts: ChooseOptions): Promise<BackendReport> {
  const tried: BackendAttempt[] = [];
  let firstFailure: string | null = null;
  for (const name of opts.order) {
    try {
      const extra = (await opts.attempt(name)) || {};
      tried.push({ name, ok: true });
      const backend = tf.getBackend();
      const adapterInfo = backend === 'webgpu' ? extra.adapterInfo : undefined;
      let reason: string | null = null;
      const first = opts.order[0];
      if (firstFailure != null) {
        reason = firstFailure;
      } else if (opts.forcedBy && first !== BACKEND_ORDER[0]) {
        reason = `forced by ${opts.forcedBy}`;
      }
      const report: BackendReport = { backend, adapter: adapterName(adapterInfo), reason, tried };
      if (adapterInfo) report.adapterInfo = adapterInfo;
      return report;
    } catch (e) {
      const msg = errorText(e);
      tried.push({ name, ok: false, error: msg });
      if (firstFailure == null) firstFailure = msg;
    }
  }
  const summary = tried.map((t) => `${t.name}: ${t.error}`).join('; ');
  throw new Error(`no usable tfjs backend (${summary})`);
}

/** Order to try: the preferred one first, then the rest of the default order. */
export function orderFor(preferred?: BackendName): BackendName[] {
  if (!preferred) return [...BACKEND_ORDER];
  return [preferred, ...BACKEND_ORDER.filter((b) => b !== preferred)];
}
