/**
 * Our WebAssembly modules on tfjs-backend-wasm's heap: each imports tfjs's own memory, so a kernel
 * reads its inputs and writes its output where tfjs keeps them, with no copy. The binaries come
 * from the .wat files beside this one (scripts/build-wasm-kernels.mjs), each in two builds: for a
 * plain memory (tfjs's single-threaded builds) and a shared one (its threaded build, used when the
 * page is cross-origin isolated).
 */
import type { BackendWasm } from '@tensorflow/tfjs-backend-wasm';

/**
 * The WebAssembly API, typed here: the Node layer's lib (ES2022 + @types/node) declares no
 * WebAssembly.Memory, Module or Instance, while the worker and page layers do.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
}
interface WasmApi {
  Memory: abstract new (...args: never[]) => WasmMemory;
  Module: new (bytes: Uint8Array<ArrayBuffer>) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const WA = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The parts of tfjs-backend-wasm's emscripten module we use (not in its typings). */
export interface EmscriptenModule {
  wasmMemory?: WasmMemory; // the threaded build: a shared memory made in JS
  asm?: { memory?: WasmMemory }; // the single-threaded builds: the module's own memory
  _malloc(bytes: number): number;
  _free(ptr: number): void;
}

/** A kernel's two builds (base64, from wasmBinaries.generated.ts) and the function it exports. */
export interface HeapModule {
  plain: string;
  shared: string;
  name: string;
}

// A function of ours takes byte addresses, sizes and strides, and returns nothing.
export type HeapFunction = (...args: number[]) => void;

function decode(base64: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** `module`'s function instantiated on `memory` (exported for the tests). */
export function instantiateOn(memory: WasmMemory, module: HeapModule): HeapFunction {
  const shared = typeof SharedArrayBuffer !== 'undefined' && memory.buffer instanceof SharedArrayBuffer;
  // Synchronous compile: each module is about 1 KB, well inside every browser's limit for it.
  const compiled = new WA.Module(decode(shared ? module.shared : module.plain));
  return new WA.Instance(compiled, { env: { memory } }).exports[module.name] as HeapFunction;
}

/** Per memory and module: the function, or null where it could not be instantiated. */
const instances = new WeakMap<WasmMemory, Map<HeapModule, HeapFunction | null>>();

/**
 * `module`'s function on this backend's heap (instantiated once per memory), or null when that
 * is not possible: the caller then runs tfjs's own kernel (the same results, only slower).
 */
export function onHeap(backend: BackendWasm, module: HeapModule): HeapFunction | null {
  const wasm = backend.wasm as unknown as EmscriptenModule;
  const memory = wasm.wasmMemory ?? wasm.asm?.memory;
  if (!(memory instanceof WA.Memory)) return null;
  let modules = instances.get(memory);
  if (!modules) instances.set(memory, (modules = new Map()));
  let f = modules.get(module);
  if (f === undefined) {
    try {
      f = instantiateOn(memory, module);
    } catch (e) {
      console.warn(`our wasm ${module.name} could not start, tfjs's kernel runs instead: ${e instanceof Error ? e.message : String(e)}`);
      f = null;
    }
    modules.set(module, f);
  }
  return f;
}
