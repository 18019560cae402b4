/**
 * The real room server (cli/room/room.ts, as `npm run room` runs it) in a child process, for the class
 * mode e2e tests: a free port, a temporary data directory, killed (SIGKILL, as a crash would) and
 * started again on the same port and data, and stopped for good at the end of a test. Every child
 * is also killed when the test process exits, so no server outlives the run.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from '@playwright/test';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

/** A port nobody listens on now (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });
}

export class RoomServerProcess {
  private proc: ChildProcess | null = null;
  /** Everything the server printed, for a failing test's message. */
  output = '';

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    /** More flags of `npm run room` (e.g. --partner-wait-s). */
    readonly extra: readonly string[] = [],
  ) {}

  /** The WebSocket endpoint a page types in the Room server field. */
  get url(): string {
    return `ws://127.0.0.1:${this.port}/room`;
  }

  get running(): boolean {
    return this.proc !== null;
  }

  static async start(extra: readonly string[] = []): Promise<RoomServerProcess> {
    const server = new RoomServerProcess(await freePort(), mkdtempSync(join(tmpdir(), 'e2e-room-')), extra);
    await server.spawn();
    return server;
  }

  /** Start the server process (again) on this port and data directory; resolves once it listens. */
  async spawn(timeoutMs = 90_000): Promise<void> {
    if (this.proc) throw new Error('the room server is already running');
    const args = ['--import', 'tsx', 'cli/room/room.ts', '--port', String(this.port), '--host', '127.0.0.1', '--data', this.dataDir, ...this.extra];
    const proc = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    live.add(proc);
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`the room server did not listen within ${timeoutMs} ms:\n${this.output}`)), timeoutMs);
      const read = (chunk: Buffer) => {
        this.output += chunk.toString();
        if (/room server on port \d+/.test(this.output.slice(this.output.lastIndexOf('$ room')))) {
          clearTimeout(timer);
          done();
        }
      };
      this.output += `$ room --port ${this.port}\n`;
      proc.stdout!.on('data', read);
      proc.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
      proc.once('exit', (code, signal) => {
        live.delete(proc);
        if (this.proc === proc) this.proc = null;
        clearTimeout(timer);
        fail(new Error(`the room server exited (${code ?? signal}) before listening:\n${this.output}`));
      });
    });
  }

  /** Kill the process at once (SIGKILL: no clean shutdown), and wait until it is gone. */
  async kill(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    this.proc = null;
    const gone = new Promise<void>((done) => (proc.exitCode !== null || proc.signalCode !== null ? done() : proc.once('exit', () => done())));
    proc.kill('SIGKILL');
    await gone;
    live.delete(proc);
  }

  /** Stop the server for good and delete its data. */
  async dispose(): Promise<void> {
    await this.kill();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

/**
 * A spec's room server, one per test: started before each test, its students' contexts closed
 * after it, and its log attached to a test that failed. Call at the spec's top level; read
 * `room.server` and push the students a test opens onto `room.students`.
 */
export function roomServerPerTest<S extends { close(): Promise<void> }>(extra: readonly string[] = []): { server: RoomServerProcess; students: S[] } {
  const room = { server: undefined as unknown as RoomServerProcess, students: [] as S[] };
  test.beforeEach(async () => {
    room.server = await RoomServerProcess.start(extra);
    room.students = [];
  });
  test.afterEach(async () => {
    const info = test.info();
    for (const s of room.students) await s.close().catch(() => {});
    if (info.status !== info.expectedStatus) await info.attach('room-server.log', { body: room.server.output, contentType: 'text/plain' });
    await room.server.dispose();
  });
  return room;
}
