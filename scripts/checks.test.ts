/**
 * The checks npm test runs before the tests (scripts/checks.mjs, used by test-all.mjs): the
 * layered typecheck and the lint are among them, each counts as one test, and a failing one
 * prints what its command printed while a passing one stays quiet.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHECKS, runCheck } from './checks.mjs';

const ROOT = resolve(fileURLToPath(import.meta.url), '../..');

async function runLogged(args: string[]) {
  const lines: string[] = [];
  const result = await runCheck(ROOT, 'probe', args, (line) => lines.push(line));
  return { result, log: lines.join('\n') };
}

describe('the checks before the tests', () => {
  it('are the layered typecheck (tsc -b tsconfig.layers.json) and the lint (eslint .)', () => {
    expect(CHECKS).toEqual([
      { label: 'typecheck', args: ['node_modules/typescript/bin/tsc', '-b', 'tsconfig.layers.json'] },
      { label: 'lint', args: ['node_modules/eslint/bin/eslint.js', '.'] },
    ]);
    const scripts = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts;
    expect([scripts.typecheck, scripts.lint]).toEqual(['tsc -b tsconfig.layers.json', 'eslint .']);
  });

  it('count one passed and print nothing of a command that exits 0', async () => {
    const { result, log } = await runLogged(['-e', "console.log('quiet' + ' detail')"]);
    expect([result.passed, result.failed]).toEqual([1, 0]);
    expect(log).toContain('probe: node -e');
    expect(log).toContain('passed');
    expect(log).not.toContain('quiet detail');
  });

  it('count one failed and print the output of a command that fails', async () => {
    const { result, log } = await runLogged(['-e', "console.log('src/x.ts(1,1): error ' + 'TS2304'); console.error('on ' + 'stderr'); process.exit(2)"]);
    expect([result.passed, result.failed]).toEqual([0, 1]);
    expect(log).toContain('failed');
    expect(log).toContain('src/x.ts(1,1): error TS2304');
    expect(log).toContain('on stderr');
  });

  it('count one failed when the tool is missing', async () => {
    const { result, log } = await runLogged(['node_modules/no-such-tool/bin.js']);
    expect([result.passed, result.failed]).toEqual([0, 1]);
    expect(log).toContain('Cannot find module');
  });
});
