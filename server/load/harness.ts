/**
 * A room server in this process on a free port and a temporary data directory, and the steps a
 * page takes (create a room, join a seat), for the load check and the server's tests.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getPreset } from '../../src/core/experiment/presets';
import { type ExperimentSpec, voteCount } from '../../src/core/experiment/spec';
import { ROOM_PROTOCOL_VERSION, type ServerMessage } from '../../src/room/protocol';
import { startRoomServer, type RoomServer, type RoomServerOptions } from '../server';
import type { RoomRecord, RoomStore } from '../store';
import { RoomClient } from './roomClient';

export interface LocalServer {
  server: RoomServer;
  url: string;
  dataDir: string;
  /** Close the server and open a new one on the same data directory and port. */
  restart(): Promise<void>;
  /** Close the server and delete its data directory. */
  dispose(): Promise<void>;
}

export async function startLocalServer(over: Partial<RoomServerOptions> = {}): Promise<LocalServer> {
  const dataDir = over.dataDir ?? mkdtempSync(join(tmpdir(), 'room-'));
  // A test's own clock (`now`) refills the address's budget of checking time only when the test
  // moves it: the time a check takes is measured for real, so on a loaded machine (the first
  // frame's check pays for compiling the schemas) a 200 ms burst could run out and hold every frame
  // until a clock that never moves. Such a server gets a burst no test uses up, unless it names one.
  const limits = over.now && over.limits?.checkBurstMs === undefined ? { ...over.limits, checkBurstMs: 600_000 } : over.limits;
  const options: RoomServerOptions = { port: 0, host: '127.0.0.1', dataDir, ttlHours: 24, distDir: null, ...over, ...(limits ? { limits } : {}) };
  const local: LocalServer = {
    server: await startRoomServer(options),
    url: '',
    dataDir,
    async restart() {
      await local.server.close();
      local.server = await startRoomServer({ ...options, port: local.server.port });
    },
    async dispose() {
      await local.server.close();
      if (!over.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
  local.url = `ws://127.0.0.1:${local.server.port}/room`;
  return local;
}

export function presetSpec(id: string): ExperimentSpec {
  const preset = getPreset(id);
  if (!preset) throw new Error(`no preset ${id}`);
  return preset.spec;
}

/**
 * A paired seat's answers in the shape its partner's page reads (the server refuses any other): a
 * step's batch of prompts with n_vote answers each, or the held-out set with G each. `n` marks them
 * (the first answer), so two sets can be told apart.
 */
export function shapedAnswers(spec: ExperimentSpec, n: number, kind: 'train' | 'eval' = 'train'): (string | null)[][] {
  const [prompts, each] = kind === 'train' ? [spec.grpo.promptsPerStep, voteCount(spec.grpo)] : [spec.data.heldOut, spec.grpo.groupSize];
  return Array.from({ length: prompts }, (_, p) => Array.from({ length: each }, (_, k) => (p === 0 && k === 0 ? String(n) : k === 1 ? null : String((n + p) % 10))));
}

export interface CreatedRoom {
  presenter: RoomClient;
  room: string;
  key: string;
}

export async function createRoom(
  url: string,
  { spec = presetSpec('quick'), pairing = false, baseSeed = 100, name = 'Class', check = true, keep = true, preset = null as string | null, seedOffset = undefined as number | undefined } = {},
): Promise<CreatedRoom> {
  const presenter = await RoomClient.connect(url, { check, keep });
  presenter.send({ t: 'create', v: ROOM_PROTOCOL_VERSION, name, preset, spec, baseSeed, pairing, ...(seedOffset === undefined ? {} : { seedOffset }) });
  const created = await presenter.waitFor('created');
  return { presenter, room: created.room, key: created.key };
}

export interface Joined {
  client: RoomClient;
  seat: Extract<ServerMessage, { t: 'seat' }>;
}

export async function joinRoom(url: string, room: string, seat: { index: number; token: string } | null = null, { check = true } = {}): Promise<Joined> {
  const client = await RoomClient.connect(url, { check });
  client.send({ t: 'join', v: ROOM_PROTOCOL_VERSION, room, seat });
  const got = await client.waitAny((m) => m.t === 'seat' || m.t === 'error');
  if (got.t !== 'seat') throw new Error(`join refused: ${got.t === 'error' ? `${got.code}: ${got.message}` : got.t}`);
  return { client, seat: got };
}

/** A second presenter tab of a room: its messages are not queued behind the first tab's on one connection. */
export async function secondPresenter(url: string, room: string, key: string): Promise<RoomClient> {
  const second = await RoomClient.connect(url);
  second.send({ t: 'present', v: ROOM_PROTOCOL_VERSION, room, key });
  await second.waitFor('room');
  return second;
}

/**
 * The store's room writes wait on a gate until `open()`, so a test can hold one in flight; `called`
 * settles at the first write's start. `before` sees each record as it arrives, `after` once written.
 */
export function gateRoomWrites(store: RoomStore, hooks: { before?: (r: RoomRecord) => void; after?: (r: RoomRecord) => void } = {}): { open: () => void; called: Promise<void> } {
  const realPut = store.putRoom.bind(store);
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  let calledBack!: () => void;
  const called = new Promise<void>((r) => (calledBack = r));
  store.putRoom = async (record) => {
    hooks.before?.(record);
    calledBack();
    await gate;
    await realPut(record);
    hooks.after?.(record);
  };
  return { open, called };
}
