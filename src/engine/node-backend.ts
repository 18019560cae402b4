/**
 * Backend set-up for Node (CLI, Vitest). No tfjs-node (its install downloads libtensorflow).
 *
 *   const report = await initNodeBackend('wasm');    // the default for tests and the CLI
 *   const report = await initNodeBackend('webgpu');  // Dawn via the `webgpu` npm package
 *
 * webgpu: on a machine with a GPU and a Vulkan driver Dawn uses it. Without one (no /dev/dri,
 * /dev/nvidia*, /dev/dxg), or when the hardware attempt yields no adapter, it uses Chromium's
 * bundled SwiftShader (Debian's lavapipe is rejected by Dawn): VK_ICD_FILENAMES points at
 * /usr/lib/chromium/vk_swiftshader_icd.json and Chromium's own libvulkan.so.1 is preloaded (the
 * in-process equivalent of LD_LIBRARY_PATH=/usr/lib/chromium, which only works when set before
 * Node starts). A process that used webgpu needs process.exit() (or releaseNodeWebGPU()) to end
 * (docs/TFJS-AND-BROWSER.md).
 *
 * On failure it falls back (webgpu -> wasm -> cpu, wasm -> cpu) and says why in `reason`;
 * pass { fallback: false } to get an exception instead.
 */
import { existsSync, readdirSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-wasm';
import {
  type AdapterDetails,
  type BackendName,
  type BackendReport,
  BackendUnavailable,
  activateBackend,
  chooseFrom,
  errorText,
  registerWebGPU,
  releaseWebGPU,
} from './backend-common';

export {
  onDeviceLost,
  type AdapterDetails,
  type BackendAttempt,
  type BackendReport,
  type DeviceLostInfo,
} from './backend-common';

export type NodeBackendName = 'wasm' | 'cpu' | 'webgpu';

export interface NodeBackendOptions {
  /** Fall back to wasm, then cpu, when the requested backend fails (default true). */
  fallback?: boolean;
  /**
   * webgpu only. 'auto' (default): hardware first when the machine has GPU device nodes, else
   * SwiftShader; an already-set VK_ICD_FILENAMES is respected as is. 'always' / 'never' force it.
   */
  swiftshader?: 'auto' | 'always' | 'never';
  /** Folder holding vk_swiftshader_icd.json (default: the first of Chromium's usual folders). */
  swiftshaderDir?: string;
}

const SWIFTSHADER_DIRS = ['/usr/lib/chromium', '/usr/lib/chromium-browser', '/usr/lib64/chromium-browser', '/opt/google/chrome'];

/** glibc's RTLD_NODELETE; Node does not export it in os.constants.dlopen. */
const RTLD_NODELETE = 0x1000;

function hasGpuDeviceNodes(): boolean {
  try {
    if (existsSync('/dev/nvidia0') || existsSync('/dev/dxg')) return true;
    return existsSync('/dev/dri') && readdirSync('/dev/dri').some((f) => f.startsWith('renderD'));
  } catch {
    return false;
  }
}

export function findSwiftShaderDir(preferred?: string): string | null {
  const dirs = preferred ? [preferred] : SWIFTSHADER_DIRS;
  return dirs.find((d) => existsSync(join(d, 'vk_swiftshader_icd.json'))) ?? null;
}

function useSwiftShader(dir: string): void {
  process.env.VK_ICD_FILENAMES = join(dir, 'vk_swiftshader_icd.json');
  process.env.XDG_RUNTIME_DIR ??= '/tmp';
  // Dawn dlopen()s "libvulkan.so.1". Debian does not install a Vulkan loader with Chromium, and
  // LD_LIBRARY_PATH set now is ignored by the dynamic linker, so load Chromium's loader by path
  // and keep it resident (NODELETE): the later dlopen by soname then finds it. process.dlopen
  // throws "did not self-register" for a non-addon library, which is expected here.
  const loader = join(dir, 'libvulkan.so.1');
  if (process.platform === 'linux' && existsSync(loader)) {
    const { RTLD_NOW, RTLD_GLOBAL } = osConstants.dlopen as { RTLD_NOW: number; RTLD_GLOBAL: number };
    try {
      process.dlopen({ exports: {} } as NodeJS.Module, loader, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
    } catch {
      /* expected: not a Node addon; the library stays loaded */
    }
  }
}

interface DawnModule {
  create: (flags: string[]) => GPU;
  globals: object;
}

let dawn: DawnModule | null = null;

async function loadDawn(): Promise<DawnModule> {
  if (!dawn) {
    const mod = (await import('webgpu')) as unknown as DawnModule;
    Object.assign(globalThis, mod.globals);
    dawn = mod;
  }
  return dawn;
}

function installNavigatorGpu(gpu: GPU | undefined): void {
  const g = globalThis as { navigator?: object };
  const nav = g.navigator;
  if (nav && typeof nav === 'object' && Object.isExtensible(nav)) {
    try {
      Object.defineProperty(nav, 'gpu', { value: gpu, configurable: true, writable: true });
      return;
    } catch {
      /* fall through: replace navigator */
    }
  }
  Object.defineProperty(globalThis, 'navigator', { value: { gpu }, configurable: true, writable: true });
}

async function requestAdapterInfo(gpu: GPU): Promise<GPUAdapter | null> {
  try {
    return await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    return null;
  }
}

async function createNodeGpu(options: NodeBackendOptions): Promise<GPU> {
  const mode = options.swiftshader ?? 'auto';
  const respectEnv = mode === 'auto' && process.env.VK_ICD_FILENAMES;
  const dir = findSwiftShaderDir(options.swiftshaderDir);
  if (mode === 'always' || (mode === 'auto' && !respectEnv && !hasGpuDeviceNodes())) {
    if (!dir) {
      throw new BackendUnavailable(
        'no WebGPU adapter: no GPU and no SwiftShader (install Chromium: apt-get install chromium, ' +
          'or pass swiftshaderDir)',
      );
    }
    useSwiftShader(dir);
    return (await loadDawn()).create([]);
  }
  const { create } = await loadDawn();
  const gpu = create([]);
  if (mode === 'never' || respectEnv) return gpu;
  const adapter = await requestAdapterInfo(gpu);
  if (adapter && adapter.info.architecture !== 'swiftshader') return gpu;
  // A GPU device node but no usable Vulkan driver for Dawn: use SwiftShader after all.
  if (!dir) return gpu;
  useSwiftShader(dir);
  return create([]);
}

async function attemptNode(name: BackendName, options: NodeBackendOptions): Promise<{ adapterInfo?: AdapterDetails }> {
  if (name === 'webgpu') {
    const gpu = await createNodeGpu(options);
    installNavigatorGpu(gpu);
    const adapterInfo = await registerWebGPU(gpu);
    await activateBackend('webgpu');
    return { adapterInfo };
  }
  if (name === 'webgl') throw new BackendUnavailable('webgl is not available in Node');
  await activateBackend(name);
  return {};
}

/** Initialise tfjs in Node on `name` (see the file comment). Exact signature for callers:
 *  initNodeBackend(name: 'wasm' | 'cpu' | 'webgpu', options?: NodeBackendOptions): Promise<BackendReport> */
export async function initNodeBackend(name: NodeBackendName, options: NodeBackendOptions = {}): Promise<BackendReport> {
  const fallback = options.fallback ?? true;
  const order: BackendName[] = fallback ? [name, ...(['wasm', 'cpu'] as const).filter((b) => b !== name)] : [name];
  try {
    return await chooseFrom({ order, attempt: (b) => attemptNode(b, options) });
  } catch (e) {
    throw new Error(`initNodeBackend(${name}): ${errorText(e)}`);
  }
}

/**
 * Drop the Dawn objects so a process that used webgpu can end without process.exit(): switches
 * tfjs to `next` (default 'cpu'), removes the webgpu backend and destroys its device.
 */
export async function releaseNodeWebGPU(next: 'wasm' | 'cpu' = 'cpu'): Promise<void> {
  if (tf.getBackend() === 'webgpu') await activateBackend(next);
  releaseWebGPU();
  installNavigatorGpu(undefined);
}
