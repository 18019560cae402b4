/**
 * npm run warmstarts -- [--room] [--preset NAME] [--check] [--verify] [--force]
 *
 * Makes public/warmstarts: the warm-started weights of every preset member, trained on Node's
 * wasm backend, one file per distinct warm start (format: src/core/experiment/warmStartCache.ts),
 * plus index.json. Files that are present and up to date are kept; stale ones are remade; files
 * no preset needs are removed.
 *
 *   --check    make nothing: list the missing, stale and unneeded files; exit 1 if there are any
 *   --verify   retrain every file and compare bit for bit (a model change without a bumped
 *              WARM_START_ENGINE_VERSION shows up here); exit 1 on a difference
 *   --preset   only that preset's warm starts
 *   --room     the rooms' seeds' warm starts (src/core/experiment/roomSeeds.ts) in
 *              public/warmstarts/room instead; a member that misses its target is named and
 *              skipped (take its seed out of the list). --check checks both folders always.
 *   --force    remake even the up-to-date files
 */
import { initNodeBackend } from '../../src/engine/node-backend';
import { ROOM_WARM_START_DIR, SHIPPED_WARM_START_DIR } from '../../src/engine/warmStartNode';
import { getPreset, PRESETS } from '../../src/core/experiment/presets';
import { SHIPPED_BACKEND, WARM_START_ENGINE_VERSION } from '../../src/core/experiment/warmStartCache';
import { parseArgs, runMain, UsageError } from '../common/args';
import { buildWarmStarts, checkWarmStarts, folderBytes, roomWarmStartPlan, verifyWarmStarts, warmStartPlan } from './warmstarts-lib';

const FLAGS = { preset: 'string', room: 'boolean', check: 'boolean', verify: 'boolean', force: 'boolean', help: 'boolean' } as const;
const USAGE = 'usage: npm run warmstarts -- [--room] [--preset NAME] [--check] [--verify] [--force]';

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2), FLAGS);
  if (args.flags.has('help')) {
    console.log(USAGE);
    return;
  }
  const preset = args.flags.get('preset') as string | undefined;
  if (preset !== undefined && !getPreset(preset)) throw new UsageError(`unknown preset "${preset}" (known: ${Object.keys(PRESETS).join(', ')})`);
  if (args.flags.has('check') && (args.flags.has('verify') || args.flags.has('force'))) throw new UsageError('--check makes nothing: give it alone');
  const room = args.flags.has('room');
  const dir = room ? ROOM_WARM_START_DIR : SHIPPED_WARM_START_DIR;
  const shipped = warmStartPlan();
  const roomPlan = roomWarmStartPlan(shipped);
  const all = room ? roomPlan : shipped;
  const plan = preset ? all.filter((e) => e.users.some((u) => u.startsWith(`${preset}/`))) : all;

  if (args.flags.has('check')) {
    const both = [
      { dir: SHIPPED_WARM_START_DIR, plan: shipped },
      { dir: ROOM_WARM_START_DIR, plan: roomPlan },
    ];
    const found = both.flatMap((f) => checkWarmStarts(f.dir, f.plan).problems.map((p) => `${f.dir === ROOM_WARM_START_DIR ? 'room/' : ''}${p}`));
    const problems = preset ? found.filter((p) => [...shipped, ...roomPlan].some((e) => p.includes(e.key) && e.users.some((u) => u.startsWith(`${preset}/`)))) : found;
    if (problems.length === 0) {
      console.log(`public/warmstarts: ${shipped.length} warm starts, up to date (engine v${WARM_START_ENGINE_VERSION}, ${(folderBytes(SHIPPED_WARM_START_DIR) / 1024).toFixed(0)} KiB)`);
      console.log(`public/warmstarts/room: ${roomPlan.length} warm starts of the rooms' seeds, up to date (${(folderBytes(ROOM_WARM_START_DIR) / 1024).toFixed(0)} KiB)`);
      return;
    }
    for (const p of problems) console.log(p);
    console.error(`${problems.length} problem(s): run npm run warmstarts (and npm run warmstarts -- --room)`);
    process.exit(1);
  }

  const report = await initNodeBackend(SHIPPED_BACKEND as 'wasm', { fallback: false });
  if (report.backend !== SHIPPED_BACKEND) throw new Error(`shipped warm starts are made on ${SHIPPED_BACKEND}, got ${report.backend}`);
  const log = (line: string) => console.error(line);
  if (args.flags.has('verify')) {
    const problems = await verifyWarmStarts(dir, plan, log);
    if (problems.length === 0) {
      console.log(`public/warmstarts: ${plan.length} warm starts retrained, all identical`);
      return;
    }
    for (const p of problems) console.log(p);
    process.exit(1);
  }
  let last = '';
  const result = await buildWarmStarts(dir, all, {
    preset,
    force: args.flags.has('force'),
    log,
    ...(room ? { onMiss: (_: unknown, message: string) => console.error(`MISSED (not shipped; take this seed out of src/core/experiment/roomSeeds.ts): ${message}`) } : {}),
    onProgress: (label, step, steps) => {
      const line = `${label}: warm start step ${step} of at most ${steps}`;
      if (process.stderr.isTTY) process.stderr.write(`\r${line.padEnd(60)}`);
      else if (line !== last && step % 50 === 0) console.error(line);
      last = line;
    },
  });
  if (process.stderr.isTTY) process.stderr.write(`\r${' '.repeat(60)}\r`);
  for (const m of result.missed) console.log(`missed: ${m}`);
  console.log(
    `public/warmstarts${room ? '/room' : ''}: ${result.made.length} made, ${result.kept.length} up to date, ${result.removed.length} removed ` +
      `in ${result.seconds.toFixed(1)} s; ${(folderBytes(dir) / 1024).toFixed(0)} KiB in all`,
  );
}

runMain(main, 'warmstarts');
