import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './src/pwa/pwaOptions.js';
import { CSP_HEADER, cspMetaPlugin } from './src/pwa/csp.js';

/**
 * Cross-origin isolation (COOP same-origin + COEP require-corp) lets the wasm backend use threads
 * (SharedArrayBuffer). Needed on both the dev server and `vite preview` (the e2e server).
 */
const crossOriginIsolation = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  // The base path is Vite's own `--base` (default '/'): `npm run build -- --base /cohort-lab/` builds
  // for a static host under that path, and every URL the lab makes follows it (import.meta.env.BASE_URL
  // for the warm starts and reference runs, the worker's and wasm's URLs, the manifest relative to
  // itself); e2e/pages.spec.ts serves such a build from a plain static server.
  // Offline and installable: service worker and web manifest (src/pwa/pwaOptions.ts).
  // Content-Security-Policy (src/pwa/csp.ts): a <meta> in the built page; the dev server has none
  // (its HMR client is an inline script).
  plugins: [VitePWA(pwaOptions), cspMetaPlugin()],
  // Vite's built-in Oxc transform, React 17+ automatic JSX runtime (no plugin-react, no Fast Refresh).
  oxc: {
    jsx: { runtime: 'automatic', importSource: 'react' },
  },
  server: {
    headers: crossOriginIsolation,
  },
  // vite preview (the e2e server) also sends the policy as a header: it covers the training
  // worker's script and enforces frame-ancestors, which a <meta> policy cannot.
  preview: {
    headers: { ...crossOriginIsolation, 'Content-Security-Policy': CSP_HEADER },
  },
  // Pre-bundle tfjs up front: otherwise the dev server discovers them when the worker first
  // imports them and reloads the page.
  optimizeDeps: {
    include: [
      '@tensorflow/tfjs',
      '@tensorflow/tfjs-backend-webgpu',
      '@tensorflow/tfjs-backend-wasm',
      'react',
      'react/jsx-runtime',
      'react-dom/client',
    ],
  },
  worker: {
    format: 'es',
    // The default minifier breaks the threaded wasm variant inside a worker bundle
    // ("e is not defined" in the pthread blob workers); mangle-only is safe.
    rolldownOptions: { output: { minify: { compress: false, mangle: true } } },
  },
  build: {
    target: 'es2022',
    // tfjs is large by nature; keep the warning for real regressions only.
    chunkSizeWarningLimit: 4096,
    // Bundling the tfjs worker legitimately dominates build time; don't warn about it each build.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
