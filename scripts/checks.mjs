// The checks `npm test` runs before the tests (scripts/test-all.mjs): the layered typecheck and
// the lint. Each counts as one test, passed when it exits 0; its output is printed only when it
// fails, so a clean run stays short and a failing one says why.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** Label and node arguments (relative to the repository root) of each check. */
export const CHECKS = [
  { label: 'typecheck', args: ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.layers.json'] },
  { label: 'lint', args: ['node_modules/eslint/bin/eslint.js', '.'] },
];

/** Run `node ...args` in root; resolves to { passed, failed, seconds } (one of them 1). */
export function runCheck(root, label, args, log = console.log) {
  const started = Date.now();
  return new Promise((done) => {
    let output = '';
    let settled = false;
    const child = spawn(process.execPath, args.map((a) => (a.startsWith('node_modules/') ? join(root, a) : a)), { cwd: root, env: process.env });
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const finish = (code, problem) => {
      if (settled) return;
      settled = true;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      log(`\n=== ${label}: node ${args.join(' ')}: ${ok ? 'passed' : 'failed'} (${seconds} s)`);
      if (!ok) log(problem ?? (output.trim() || `(no output, exit ${code})`));
      done({ passed: ok ? 1 : 0, failed: ok ? 0 : 1, seconds });
    };
    child.on('error', (e) => finish(1, `${label}: could not start: ${e.message}`));
    child.on('close', (code) => finish(code ?? 1));
  });
}
