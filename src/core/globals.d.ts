/**
 * The only host globals src/core may use. tsconfig.core.json compiles the core with lib ES2022
 * alone (no DOM, no WebWorker, no Node), because the same core runs in the page's training
 * worker, in bench.html's page, and in Node (the CLIs and the unit tests). Each name below exists,
 * with at least this signature, in all three: browsers and workers define it (HTML / WHATWG
 * standards), and Node 20 has it as a global (the version in the comment: since when).
 * Anything that exists in only one of them (window, document, self, postMessage, process, fs,
 * indexedDB, fetch with file URLs) belongs in src/engine, src/app or cli/, not here.
 * The declarations are the narrow subset the core calls; they merge with nothing because no other
 * layer's tsconfig includes this file.
 */

/** High-resolution clock for step timings (Node 16: global `performance`). */
interface Performance {
  now(): number;
}
declare const performance: Performance;

/** Deep copy of plain data: specs, JSON, metrics (Node 17). */
declare function structuredClone<T>(value: T): T;

/** UTF-8 bytes of a string, for hashing warm-start keys (Node 11). */
interface TextEncoder {
  encode(input?: string): Uint8Array<ArrayBuffer>;
}
declare const TextEncoder: { new (): TextEncoder; prototype: TextEncoder };

/** Base64 of the weights in warm-start files (Node 16). */
declare function atob(data: string): string;
declare function btoa(data: string): string;

/** Waiting in tests (every runtime; the handle's type differs, so it is opaque here). */
declare function setTimeout(handler: (...args: never[]) => void, timeout?: number): unknown;

/** Messages a test prints (every runtime). */
interface Console {
  log(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
}
declare const console: Console;
