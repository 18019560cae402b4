#!/usr/bin/env node
// A plain static file server, as a static host is (GitHub Pages, an S3 bucket, a university's web
// space): files under one path prefix, a content type per extension, and no other header (no
// cross-origin isolation, no Content-Security-Policy header). The Pages check (e2e/pages.spec.ts)
// serves a base-path build with it, and anyone can try a build the same way:
//   node scripts/static-server.mjs dist --base /cohort-lab/ --port 8080
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves `dir` at `base` (e.g. '/cohort-lab/') on 127.0.0.1:`port` (0: any free port). A folder
 * serves its index.html; a path outside `base` or `dir`, or a missing file, is a 404. Resolves to
 * the server and the address of `base`; `requests` lists every path asked for, in order.
 * @param {string} dir @param {string} base @param {number} port
 */
export function serveStatic(dir, base = '/', port = 0) {
  const root = resolve(dir);
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(path);
    const notFound = () => {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('not found');
    };
    if (`${path}/` === prefix) {
      res.writeHead(301, { Location: prefix });
      res.end();
      return;
    }
    if (!path.startsWith(prefix)) return notFound();
    let file = normalize(join(root, path.slice(prefix.length)));
    if (file !== root && !file.startsWith(root + sep)) return notFound();
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const size = statSync(file).size;
      res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream', 'Content-Length': size });
      createReadStream(file).pipe(res);
    } catch {
      notFound();
    }
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      ok({ server, requests, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}${prefix}` });
    });
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const flag = (name, fallback) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const dir = args.find((a, i) => !a.startsWith('--') && !['--base', '--port'].includes(args[i - 1])) ?? 'dist';
  const { url } = await serveStatic(dir, flag('--base', '/'), Number(flag('--port', '8080')));
  console.log(`serving ${dir} at ${url} (no special headers; Ctrl-C stops)`);
}
