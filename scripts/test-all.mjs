#!/usr/bin/env node
// npm test: the layered typecheck (tsc -b tsconfig.layers.json), the lint (ESLint), the unit tests
// (Vitest, Node) and the e2e tests (Playwright, Chromium), all at once, then one summary. The
// typecheck and the lint count as one test each, passed or failed; their output is shown when they fail.
// The working tree must be as clean after as before (a test that wrote a tracked file counts as a
// failure). The last line printed is exactly `N passed, N failed` (CI reads it); exit code 1 if any failed.
// A runner that crashes (non-zero exit without a usable JSON report) counts as at least 1 failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS, runCheck } from './checks.mjs';
import { E2E_JSON, countPlaywright } from './run-e2e.mjs';
import { treeChanges, treeState } from './tree-state.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const UNIT_JSON = join(root, 'test-results', 'unit.json');

/** Count a Vitest JSON report (jest format); null when missing or unreadable. */
function countVitest(path) {
  if (!path || !existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8'));
    let failed = r.numFailedTests ?? 0;
    // A file that fails to load or errors outside a test has status 'failed' and no failed test.
    for (const file of r.testResults ?? []) {
      const failedTests = (file.assertionResults ?? []).filter((a) => a.status === 'failed').length;
      if (file.status === 'failed' && failedTests === 0) failed += 1;
    }
    return { passed: r.numPassedTests ?? 0, failed, skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0) };
  } catch {
    return null;
  }
}

/** A report counts only if this run wrote it (another run in the same checkout may have). */
function fresh(path, since) {
  try {
    return statSync(path).mtimeMs >= since - 1000 ? path : null;
  } catch {
    return null;
  }
}

/**
 * Run `node args` with its output shown as it comes (each line after `prefix`, when given, so two
 * runners can share the terminal); resolves when it exits (never rejects).
 */
function run(label, args, { prefix = '' } = {}) {
  console.log(`\n=== ${label}: node ${args.map((a) => a.replace(root + '/', '')).join(' ')}\n`);
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: process.env,
    });
    if (prefix) {
      for (const stream of [child.stdout, child.stderr]) {
        let rest = '';
        stream.on('data', (d) => {
          const lines = (rest + d).split('\n');
          rest = lines.pop();
          for (const line of lines) console.log(prefix + line);
        });
        stream.on('end', () => rest && console.log(prefix + rest));
      }
    }
    let settled = false;
    const finish = (code) => {
      if (settled) return;
      settled = true;
      done({ code, seconds: ((Date.now() - started) / 1000).toFixed(1), started });
    };
    child.on('error', (e) => {
      console.error(`${label}: could not start: ${e.message}`);
      finish(1);
    });
    child.on('close', (code) => finish(code ?? 1));
  });
}

/** Combine a runner's exit code and its report into counts that never hide a crash. */
function tally(label, code, counts) {
  if (!counts) {
    console.log(`${label}: no report (exit ${code}); counted as 1 failed`);
    return { passed: 0, failed: 1 };
  }
  let { passed, failed } = counts;
  if (code !== 0 && failed === 0) {
    console.log(`${label}: exited with ${code} although no test failed (crash or unhandled error); counted as 1 failed`);
    failed = 1;
  }
  return { passed, failed };
}

const treeBefore = treeState(root);
mkdirSync(join(root, 'test-results'), { recursive: true });
rmSync(UNIT_JSON, { force: true });
rmSync(E2E_JSON, { force: true });

// Everything at once: the typecheck and the lint (their output shown only on failure), the unit
// tests (two Vitest forks; Vitest's default leaves a core free on 2 cores) and the e2e tests (two
// Playwright workers, their lines prefixed with "e2e │"). Each alone leaves cores idle (the browser
// tests wait on the page about a third of the time), so together they take about as long as their
// summed CPU time allows.
const checksRun = Promise.all(CHECKS.map((c) => runCheck(root, c.label, c.args)));
const e2eRun = run('e2e', [join(root, 'scripts', 'run-e2e.mjs')], { prefix: 'e2e │ ' });

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const unitRun = await run('unit', [
  vitest,
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile=${UNIT_JSON}`,
  '--passWithNoTests',
  '--maxWorkers=2',
]);
const unit = tally('unit', unitRun.code, countVitest(fresh(UNIT_JSON, unitRun.started)));
const checks = await checksRun;
const e2eDone = await e2eRun;
const e2e = tally('e2e', e2eDone.code, countPlaywright(fresh(E2E_JSON, e2eDone.started)));

// The tests must leave the working tree as they found it (build output and reports are ignored).
const dirtied = treeChanges(treeBefore, treeState(root));
if (dirtied.length) console.log(`the tests changed the working tree (counted as 1 failed):\n  ${dirtied.join('\n  ')}`);

const sum = (key) => checks.reduce((n, c) => n + c[key], 0);
const passed = sum('passed') + unit.passed + e2e.passed;
const failed = sum('failed') + unit.failed + e2e.failed + (dirtied.length ? 1 : 0);
console.log('');
CHECKS.forEach((c, i) => console.log(`${c.label}: ${checks[i].failed ? 'failed' : 'passed'} (${checks[i].seconds} s)`));
console.log(`unit: ${unit.passed} passed, ${unit.failed} failed (${unitRun.seconds} s)`);
console.log(`e2e:  ${e2e.passed} passed, ${e2e.failed} failed (${e2eDone.seconds} s)`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
