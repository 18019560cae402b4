/**
 * The page's Content-Security-Policy, defined once (docs/RELIABILITY.md, "Content-Security-Policy").
 * vite.config.ts delivers it two ways:
 *
 * - as `<meta http-equiv="Content-Security-Policy">` in the built index.html (cspMetaPlugin, build
 *   only: the dev server injects inline HMR scripts, which this policy forbids), so a static host
 *   that sends no headers still gets it;
 * - as a response header from `vite preview` (what the e2e tests serve), which also enforces
 *   `frame-ancestors` (a meta policy ignores it, and Chromium logs an error when one holds it) and
 *   covers the training worker: a worker from a URL is governed by its own response's policy,
 *   never by the page's meta tag.
 *
 * Forbidden: inline scripts, eval, scripts from anywhere but this origin, plugins, forms,
 * framing, `<base>` elsewhere. Every source is this origin except `blob:` where tfjs-wasm's
 * threads need it (below), and `ws:`/`wss:` in connect-src for class mode's room; no wildcard.
 */
import type { Plugin } from 'vite';

export type Directives = Readonly<Record<string, readonly string[]>>;

/** The page's policy: what the document itself may load and run. */
export const CSP_DIRECTIVES: Directives = {
  // Anything not named below: this origin only (the web manifest, the icons, fonts if any).
  'default-src': ["'self'"],
  // Module scripts from this origin. 'wasm-unsafe-eval' lets WebAssembly compile (tfjs's wasm
  // backend, in the training worker) without allowing JavaScript eval.
  'script-src': ["'self'", "'wasm-unsafe-eval'"],
  // The training worker (a module worker from this origin) and the service worker (sw.js).
  'worker-src': ["'self'"],
  // fetch(): the wasm binaries, public/warmstarts, public/references, the service worker's precache.
  // ws: wss:: class mode's room server (src/room/client.ts). Its address is the presenter's to
  // choose (a laptop on the class Wi-Fi, ws://<its IP>:8787/room), so no origin can be named
  // ahead; the schemes let only WebSockets out, and every frame that comes back is validated.
  'connect-src': ["'self'", 'ws:', 'wss:'],
  // The icons. The PNG export draws canvases and downloads a blob: link: no image is loaded.
  'img-src': ["'self'"],
  // The built CSS file. No 'unsafe-inline' (nor style-src-attr): React sets `style={...}` (the
  // swatch colours) through the CSSOM (element.style), which CSP does not govern, and uPlot does
  // the same; only <style> elements and style="" in markup or setAttribute('style') are blocked.
  'style-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/**
 * Sources only the training worker needs, added to the header alone. tfjs-wasm's threaded variant
 * starts its pthreads as blob: workers (worker-src) that `importScripts` a blob: holding the
 * Emscripten glue (script-src); without them the wasm backend never finishes loading. A worker
 * from a URL is governed by its own response's header, and blob: workers inherit their creator's
 * policy, so the header must allow blob:. The document is governed by the header and the meta
 * together (a source must pass both), and the meta leaves blob: out: the page itself never runs a
 * blob: script or worker. (A blob: URL can only be minted by script already running on this
 * origin, so even the worker admits no foreign script through it.)
 */
export const WORKER_ONLY: Directives = {
  'script-src': ['blob:'],
  'worker-src': ['blob:'],
};

/** Directives a `<meta>` policy ignores (CSP3 §3.3); Chromium logs a console error for each. */
export const META_IGNORED = ['frame-ancestors', 'report-uri', 'sandbox'] as const;

/** `name source source; name source`, the form of both the header and the meta's content. */
export function serializePolicy(directives: Directives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

/** The header: the page's policy with the worker-only sources. */
export function headerPolicy(base: Directives = CSP_DIRECTIVES, workerOnly: Directives = WORKER_ONLY): string {
  const merged: Record<string, readonly string[]> = { ...base };
  for (const [name, sources] of Object.entries(workerOnly)) merged[name] = [...(merged[name] ?? []), ...sources];
  return serializePolicy(merged);
}

/** The meta: the page's policy without what a meta policy ignores. */
export function metaPolicy(base: Directives = CSP_DIRECTIVES): string {
  return serializePolicy(Object.fromEntries(Object.entries(base).filter(([name]) => !(META_IGNORED as readonly string[]).includes(name))));
}

export const CSP_HEADER = headerPolicy();
export const CSP_META = metaPolicy();

/**
 * Build only: the policy as the first element of the built index.html's <head>. Not bench.html
 * (a measuring page, never deployed), which runs threaded wasm on its main thread and so needs the
 * header's blob: in the document.
 */
export function cspMetaPlugin(content: string = CSP_META): Plugin {
  return {
    name: 'cohort-lab-csp-meta',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler: (_html, ctx) =>
        ctx.path === '/index.html' ? [{ tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content }, injectTo: 'head-prepend' }] : [],
    },
  };
}
