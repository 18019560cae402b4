/**
 * Serves the built app (dist/) next to the room, so that for a class on one network
 * `npm run build && npm run room` is the lab and the room on one origin. GET and HEAD only; a
 * path is decoded, resolved inside the folder and refused unless the real file (symbolic links
 * followed) lies inside it, so neither "..", "%2e%2e", encoded slashes nor a link lead out. "/" is
 * index.html. Responses carry the headers `vite preview` sends: cross-origin isolation (threaded
 * wasm) and the page's Content-Security-Policy (src/pwa/csp.ts).
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import { CSP_HEADER } from '../src/pwa/csp';

export const MIME_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Content-Security-Policy': CSP_HEADER,
  'X-Content-Type-Options': 'nosniff',
};

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end(text + '\n');
}

/** The file a URL path names inside `root` (a real path), or null when it names none there. */
export async function resolveStatic(root: string, urlPath: string): Promise<string | null> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path.endsWith('/')) path += 'index.html';
  const candidate = resolve(root, '.' + path);
  if (!candidate.startsWith(root + sep)) return null;
  try {
    const real = await realpath(candidate);
    if (!real.startsWith(root + sep)) return null;
    return (await stat(real)).isFile() ? real : null;
  } catch {
    return null;
  }
}

/** An HTTP handler serving `dir`, or saying how to build it when there is none. */
export async function staticHandler(dir: string | null): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  let root: string | null = null;
  if (dir) {
    try {
      root = await realpath(dir);
    } catch {
      root = null;
    }
  }
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      return plain(res, 405, 'Only GET and HEAD.');
    }
    if (!root) return plain(res, 404, 'This room server serves no app: run `npm run build` first, then `npm run room`. The room itself is at /room (WebSocket).');
    const pathname = (req.url ?? '/').split('?')[0].split('#')[0];
    const base = root;
    void resolveStatic(base, pathname).then((file) => {
      if (!file) return plain(res, 404, 'Not found.');
      const type = MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
      res.writeHead(200, { ...HEADERS, 'Content-Type': type, 'Cache-Control': file.endsWith('.html') || file.endsWith('sw.js') ? 'no-cache' : 'public, max-age=3600' });
      if (req.method === 'HEAD') return res.end();
      createReadStream(file)
        .on('error', () => res.destroy())
        .pipe(res);
    });
  };
}
