/** The policy's text (src/pwa/csp.ts): what it forbids, and that vite.config.ts delivers it as designed. */
import { describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config';
import { CSP_HEADER, CSP_META, cspMetaPlugin } from './csp';

/** 'a x y; b z' -> { a: ['x', 'y'], b: ['z'] }; a directive given twice is an error (the browser keeps the first). */
function parse(policy: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of policy.split(';').map((p) => p.trim()).filter(Boolean)) {
    const [name, ...sources] = part.split(/\s+/);
    if (name in out) throw new Error(`${name} given twice`);
    out[name] = sources;
  }
  return out;
}

const header = parse(CSP_HEADER);
const meta = parse(CSP_META);

describe('the Content-Security-Policy', () => {
  for (const [delivery, p] of [['header', header], ['meta', meta]] as const) {
    it(`${delivery}: scripts only from this origin, no inline script, no eval, but WebAssembly may compile`, () => {
      expect(p['script-src']).toContain("'self'");
      expect(p['script-src']).toContain("'wasm-unsafe-eval'");
      for (const banned of ["'unsafe-inline'", "'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'", 'data:', 'http:', 'https:']) {
        expect(p['script-src']).not.toContain(banned);
      }
      // No script-src-elem / -attr that could widen script-src for elements or attributes.
      expect(Object.keys(p).filter((d) => d.startsWith('script-src-'))).toEqual([]);
      expect(p['default-src']).toEqual(["'self'"]);
    });

    it(`${delivery}: no wildcard, no scheme-wide source but blob: (and ws:, wss: for connections), and no inline style`, () => {
      for (const [name, sources] of Object.entries(p)) {
        for (const s of sources) {
          expect(s, name).not.toContain('*');
          if (/^[a-z-]+:$/.test(s) && name === 'connect-src') expect(['ws:', 'wss:'], name).toContain(s);
          else if (/^[a-z-]+:$/.test(s)) expect(s, name).toBe('blob:');
          expect(s, name).not.toMatch(/^https?:\/\//); // no other origin
        }
      }
      expect(p['style-src']).toEqual(["'self'"]);
      expect(p['object-src']).toEqual(["'none'"]);
      expect(p['base-uri']).toEqual(["'self'"]);
      expect(p['form-action']).toEqual(["'none'"]);
    });
  }

  it('connect-src: this origin and WebSockets to any room server (class mode), nothing else', () => {
    for (const p of [header, meta]) expect(p['connect-src']).toEqual(["'self'", 'ws:', 'wss:']);
    // Only connections: no other directive takes the WebSocket schemes.
    for (const p of [header, meta]) expect(Object.keys(p).filter((d) => p[d].some((s) => s === 'ws:' || s === 'wss:'))).toEqual(['connect-src']);
  });

  it('blob: only in the header and only for scripts and workers (tfjs-wasm pthreads in the training worker)', () => {
    const withBlob = (p: Record<string, string[]>) => Object.keys(p).filter((d) => p[d].includes('blob:')).sort();
    expect(withBlob(header)).toEqual(['script-src', 'worker-src']);
    expect(withBlob(meta)).toEqual([]);
  });

  it('frame-ancestors in the header only: a meta policy ignores it and Chromium logs an error for it', () => {
    expect(header['frame-ancestors']).toEqual(["'none'"]);
    expect(meta['frame-ancestors']).toBeUndefined();
    // Otherwise the two are one policy.
    const { 'frame-ancestors': _, ...rest } = header;
    const strip = (p: Record<string, string[]>) => Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.filter((s) => s !== 'blob:')]));
    expect(strip(rest)).toEqual(meta);
  });

  it('the meta goes first into the built index.html only, never into the dev server', () => {
    const plugin = cspMetaPlugin();
    expect(plugin.apply).toBe('build');
    const hook = plugin.transformIndexHtml as { order: string; handler: (html: string, ctx: { path: string }) => unknown };
    expect(hook.handler('', { path: '/index.html' })).toEqual([
      { tag: 'meta', attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META }, injectTo: 'head-prepend' },
    ]);
    expect(hook.handler('', { path: '/bench.html' })).toEqual([]);
  });

  it('vite.config.ts: the header from vite preview, beside COOP/COEP; the meta plugin; nothing on the dev server', () => {
    const config = viteConfig as import('vite').UserConfig;
    expect(config.preview?.headers).toEqual({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Content-Security-Policy': CSP_HEADER,
    });
    expect(Object.keys(config.server?.headers ?? {})).not.toContain('Content-Security-Policy');
    const names = (config.plugins ?? []).flat(3).map((p) => (p && typeof p === 'object' && 'name' in p ? p.name : null));
    expect(names).toContain('cohort-lab-csp-meta');
  });
});
