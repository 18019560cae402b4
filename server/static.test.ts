// The built app served next to the room: the right MIME types and headers, "/" as index.html,
// and nothing outside the folder, however the path is spelled.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from './load/harness';

let local: LocalServer;
let noApp: LocalServer;
let top: string;

beforeAll(async () => {
  top = mkdtempSync(join(tmpdir(), 'room-static-'));
  const dist = join(top, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>lab</title>');
  writeFileSync(join(dist, 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(join(dist, 'assets', 'tfjs.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  writeFileSync(join(dist, 'manifest.webmanifest'), '{}');
  writeFileSync(join(top, 'secret.txt'), 'SECRET');
  symlinkSync(top, join(dist, 'out'));
  local = await startLocalServer({ distDir: dist });
  noApp = await startLocalServer({ distDir: join(top, 'missing') });
});
afterAll(async () => {
  await local.dispose();
  await noApp.dispose();
  rmSync(top, { recursive: true, force: true });
});

/** A raw request: the path goes out exactly as written (no normalisation by a URL class). */
function get(server: LocalServer, path: string, method = 'GET'): Promise<{ status: number; type: string; body: string; headers: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: server.server.port, path, method }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => done({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body, headers: res.headers }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('static files', () => {
  it('serves / as index.html and each file with its MIME type and the isolation headers', async () => {
    const root = await get(local, '/?room=abc');
    expect(root.status).toBe(200);
    expect(root.type).toMatch(/^text\/html/);
    expect(root.body).toContain('<title>lab</title>');
    expect(root.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(root.headers['cross-origin-embedder-policy']).toBe('require-corp');
    expect(String(root.headers['content-security-policy'])).toContain("default-src 'self'");
    expect((await get(local, '/assets/app.js')).type).toMatch(/^text\/javascript/);
    expect((await get(local, '/assets/tfjs.wasm')).type).toBe('application/wasm');
    expect((await get(local, '/manifest.webmanifest')).type).toMatch(/^application\/manifest\+json/);
    const head = await get(local, '/assets/app.js', 'HEAD');
    expect([head.status, head.body]).toEqual([200, '']);
  });

  it('finds nothing outside the folder, however the path is spelled', async () => {
    for (const path of ['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt', '/assets%2f..%2f..%2fsecret.txt', '/..%5csecret.txt', '/out/secret.txt', '/%00', '/%E0%A4%A', '/nope.js', '/assets']) {
      const r = await get(local, path);
      expect([path, r.status]).toEqual([path, 404]);
      expect(r.body).not.toContain('SECRET');
    }
  });

  it('answers only GET and HEAD, and says how to build the app when there is none', async () => {
    expect((await get(local, '/', 'POST')).status).toBe(405);
    const none = await get(noApp, '/');
    expect(none.status).toBe(404);
    expect(none.body).toMatch(/npm run build/);
  });
});
