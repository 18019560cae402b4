/**
 * The real room server as an attacker meets it: `cli/room/room.ts` in a child process (as `npm run
 * room` runs it) on loopback, a free port and a temporary data directory, with what the red-team
 * checks read from outside: whether the process is alive, its resident memory (/proc, Linux) and
 * the data directory's size on disk. `root` may be another checkout (a worktree of an older
 * commit), to run the same attacks against the code before a fix.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Target {
  url: string;
  /** The checkout whose server this is (an attack may start another of it: startTarget's root). */
  root: string;
  port: number;
  pid: number;
  dataDir: string;
  /** Everything the server printed (stdout and stderr). */
  output(): string;
  /** Whether the process is still running. */
  alive(): boolean;
  /** Resident memory, bytes; and the most seen since resetPeak. */
  rss(): number;
  peakRss(): number;
  resetPeak(): void;
  /** Bytes the data directory takes on disk. */
  disk(): number;
  /** Open file descriptors of the process. */
  fds(): number;
  /** SIGKILL the process, keeping its data directory. */
  kill(): Promise<void>;
  /** Kill it and delete its data directory. */
  stop(): Promise<void>;
}

export const DEFAULT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

function dirBytes(dir: string): number {
  let n = 0;
  for (const name of readdirSync(dir)) {
    const st = statSync(join(dir, name), { throwIfNoEntry: false });
    if (!st) continue;
    n += st.isDirectory() ? dirBytes(join(dir, name)) : st.blocks * 512;
  }
  return n;
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Where checkout `root` has `npm run room`'s script (cli/room.ts before cli/ had folders). */
export function roomCliOf(root: string): string {
  return existsSync(join(root, 'cli/room/room.ts')) ? 'cli/room/room.ts' : 'cli/room.ts';
}

/** Start the server of checkout `root` (default: this one) with extra flags, on `port` (0: a free one) and `dataDir` (default: a new temporary one). */
export function startTarget({ root = DEFAULT_ROOT, args = [] as string[], port = 0, dataDir = mkdtempSync(join(tmpdir(), 'room-attack-')) } = {}): Promise<Target> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, roomCliOf(root)), '--port', String(port), '--host', '127.0.0.1', '--data', dataDir, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exited = false;
  let peak = 0;
  child.once('exit', () => (exited = true));
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(child.pid!))), 50);
  sampler.unref();
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const port = /room server on port (\d+)/.exec(out)?.[1];
      if (!port || target) return;
      target = {
        url: `ws://127.0.0.1:${port}/room`,
        root,
        port: Number(port),
        pid: child.pid!,
        dataDir,
        output: () => out,
        alive: () => !exited,
        rss: () => rssOf(child.pid!),
        peakRss: () => Math.max(peak, rssOf(child.pid!)),
        resetPeak: () => (peak = rssOf(child.pid!)),
        disk: () => dirBytes(dataDir),
        fds: () => {
          try {
            return readdirSync(`/proc/${child.pid}/fd`).length;
          } catch {
            return 0;
          }
        },
        async kill() {
          clearInterval(sampler);
          if (exited) return;
          const gone = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await gone;
        },
        async stop() {
          await target!.kill();
          rmSync(dataDir, { recursive: true, force: true });
        },
      };
      done(target);
    });
    let target: Target | null = null;
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      if (!target) fail(new Error(`the room server exited (${code}) before it listened: ${out}`));
    });
  });
}
