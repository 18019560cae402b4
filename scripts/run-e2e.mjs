#!/usr/bin/env node
// Run the Playwright e2e tests in the system Chromium.
//   node scripts/run-e2e.mjs [playwright args...]     (npm run test:e2e -- --project=webgpu)
// Exits 1 with install instructions when no Chromium is found. Results: test-results/e2e.json.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INSTALL_HINT, findChromium } from './find-chromium.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const E2E_JSON = join(root, 'test-results', 'e2e.json');
const LOCK = join(root, 'test-results', '.e2e.lock');

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

/**
 * One e2e run at a time per checkout: concurrent runs would share the build folder, the server
 * port, Playwright's outputDir (emptied at start, trace files included) and e2e.json.
 * A lock whose process is gone is taken over.
 */
async function acquireLock(maxWaitMs = 45 * 60_000) {
  mkdirSync(dirname(LOCK), { recursive: true });
  const deadline = Date.now() + maxWaitMs;
  let announced = false;
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: 'wx' });
      process.on('exit', releaseLock);
      return true;
    } catch (e) {
      if (e.code !== 'EEXIST') throw e;
    }
    let holder = NaN;
    try {
      holder = Number(readFileSync(LOCK, 'utf8'));
    } catch {
      continue; // released between our two calls
    }
    if (!alive(holder)) {
      try {
        if (Number(readFileSync(LOCK, 'utf8')) === holder) unlinkSync(LOCK);
      } catch {
        /* someone else took it over */
      }
      continue;
    }
    if (Date.now() > deadline) return false;
    if (!announced) {
      console.log(`e2e: another e2e run in this checkout (pid ${holder}) is in progress; waiting for it to finish...`);
      announced = true;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}

function releaseLock() {
  try {
    if (Number(readFileSync(LOCK, 'utf8')) === process.pid) unlinkSync(LOCK);
  } catch {
    /* already gone */
  }
}

/** Count a Playwright JSON report: { passed, failed, skipped } (null if the file is missing/bad). */
export function countPlaywright(path = E2E_JSON) {
  if (!path || !existsSync(path)) return null;
  try {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    const s = report.stats ?? {};
    const passed = (s.expected ?? 0) + (s.flaky ?? 0);
    // Errors outside tests (webServer failed, config error, global timeout) are failures too.
    const globalErrors = Array.isArray(report.errors) ? report.errors.length : 0;
    const failed = (s.unexpected ?? 0) + (s.unexpected ? 0 : globalErrors);
    return { passed, failed, skipped: s.skipped ?? 0 };
  } catch {
    return null;
  }
}

async function main() {
  const chromium = findChromium();
  if (!chromium) {
    console.error(`e2e: ${INSTALL_HINT}`);
    return 1;
  }
  const cli = join(root, 'node_modules', '@playwright', 'test', 'cli.js');
  if (!existsSync(cli)) {
    console.error('e2e: @playwright/test is not installed; run `npm ci` first.');
    return 1;
  }
  if (!(await acquireLock())) {
    console.error(`e2e: gave up waiting for another e2e run to finish (lock ${LOCK}).`);
    return 1;
  }
  rmSync(E2E_JSON, { force: true });
  mkdirSync(join(root, 'test-results', 'screenshots'), { recursive: true });
  console.log(`e2e: Chromium ${chromium}`);
  const env = {
    ...process.env,
    CHROMIUM_PATH: chromium,
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    // Debian's /usr/bin/chromium wrapper reads this; keep Chromium's own crash reporter quiet.
    CHROME_HEADLESS: '1',
  };
  const res = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  if (res.error) console.error(`e2e: could not run Playwright: ${res.error.message}`);
  const counts = countPlaywright();
  const code = res.status ?? 1;
  if (counts) {
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    console.log(`e2e totals: ${counts.passed} passed, ${counts.failed} failed${skipped}`);
  } else {
    console.log(`e2e totals: no report (Playwright exited with ${code})`);
  }
  return code;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().then(
    (code) => process.exit(code),
    (e) => {
      console.error(`e2e: ${e instanceof Error ? e.stack : e}`);
      process.exit(1);
    },
  );
}
