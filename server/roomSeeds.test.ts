// A room's seeds (roomState.ts seedOf, src/core/experiment/roomSeeds.ts): seats take their preset's
// room seeds, whose warm starts ship with the lab, in join order from the room's offset; "Run again
// with new seeds" moves to the list's next unused seeds; past the list's end seats get baseSeed +
// index; a room made without a list keeps baseSeed + index. And the property the lists are for:
// every seat of a 30-seat class, paired or not, loads shipped warm starts for every member it
// trains, through the page's own warm-start source, and trains none.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roomSeedList } from '../src/core/experiment/roomSeeds';
import { parseWarmStartIndex, parseWarmStartText, warmStartFileProblem, warmStartInputs, warmStartKeyFields, keyOfFields } from '../src/core/experiment/warmStartCache';
import { createSeeds, newRoomSeeds, runAgainSeeds } from '../src/room/roomSeeds';
import { levelPair } from '../src/room/levels';
import type { RoomInfo } from '../src/room/protocol';
import { createRoom, joinRoom, presetSpec, startLocalServer, type Joined, type LocalServer } from './load/harness';
import type { RoomClient } from './load/roomClient';

let local: LocalServer;
beforeAll(async () => {
  local = await startLocalServer({ roomDebounceMs: 10, limits: { joinsPerMinute: 600, joinBurst: 200, connectionsPerAddress: 400, socketsPerAddress: 400 } });
});
afterAll(() => local.dispose());

/** A room made as the presenter's page makes it for `preset` at its own seed (roomController.create), or run again from `after`. */
async function pageRoom(preset: string, pairing: boolean, after?: RoomInfo) {
  const spec = presetSpec(preset);
  const seeds = after ? runAgainSeeds(after) : newRoomSeeds(preset, spec.seed);
  return createRoom(local.url, { preset, spec: { ...spec, seed: seeds.specSeed }, pairing, ...createSeeds(seeds) });
}

async function seatClass(room: string, n: number): Promise<Joined[]> {
  const seats: Joined[] = [];
  for (let i = 0; i < n; i++) seats.push(await joinRoom(local.url, room));
  return seats;
}

async function infoOf(presenter: RoomClient, seats: number): Promise<RoomInfo> {
  return (await presenter.waitFor('room', (m) => m.room.seats.length === seats)).room;
}

const closeAll = (clients: RoomClient[]) => Promise.all(clients.map((c) => c.close()));

/**
 * The shipped warm starts as the site serves them: the presets' folder, then the rooms' seeds'
 * (as src/engine/warmStartSource.ts reads them, index first), each file parsed and validated.
 */
const PUBLIC = fileURLToPath(new URL('../public/warmstarts/', import.meta.url));
function shippedFile(key: string): { folder: string; file: ReturnType<typeof parseWarmStartText> } | null {
  for (const folder of ['', 'room/']) {
    const index = parseWarmStartIndex(readFileSync(join(PUBLIC, folder, 'index.json'), 'utf8'));
    const entry = index.files.find((f) => f.key === key);
    if (entry) return { folder, file: parseWarmStartText(readFileSync(join(PUBLIC, folder, entry.file), 'utf8')) };
  }
  return null;
}

/**
 * The members whose warm starts seat `seat` needs: both of its level's pair where it has a level
 * (a paired seat whose partner does not come trains both alone; an unpaired seat of a room of
 * levels always does); every member of an unpaired seat without one.
 */
function membersOf(preset: string, seat: { member: string | null; level?: string | null }): string[] {
  const pair = seat.level ? levelPair(presetSpec(preset), seat.level) : null;
  if (pair) return [pair.anchor, pair.partner];
  return seat.member === null ? presetSpec(preset).members.map((m) => m.id) : [seat.member];
}

describe("a room's seeds", () => {
  it("hands a 30-seat class the preset's room seeds in join order, then baseSeed + index past the list", async () => {
    const list = roomSeedList('peers-learn');
    expect(list.slice(0, 8)).toEqual([109, 110, 111, 112, 113, 114, 115, 116]);
    const { presenter, room } = await pageRoom('peers-learn', false);
    const seats = await seatClass(room, 32);
    const info = await infoOf(presenter, 32);
    expect(seats.slice(0, 30).map((s) => s.seat.seat.seed)).toEqual(list.slice(0, 30));
    expect(info.seeds).toEqual(list);
    expect(info.seedOffset).toBe(0);
    // Past the list: baseSeed + index, with the base past the list's every seed.
    expect(info.baseSeed).toBe(Math.max(...list) + 1);
    expect(seats.slice(30).map((s) => s.seat.seat.seed)).toEqual([info.baseSeed + 30, info.baseSeed + 31]);
    expect(new Set(seats.map((s) => s.seat.seat.seed)).size).toBe(32);
    await closeAll([presenter, ...seats.map((s) => s.client)]);
  });

  it('gives a paired class one listed seed a pair, and Run again the next unused ones until the list runs out', async () => {
    const list = roomSeedList('peers-learn');
    const first = await pageRoom('peers-learn', true);
    const a = await seatClass(first.room, 30);
    expect(a.map((s) => s.seat.seat.seed)).toEqual(list.slice(0, 15).flatMap((x) => [x, x]));
    const infoA = await infoOf(first.presenter, 30);
    // Round two: the list's next 15 seeds, none of round one's.
    const second = await pageRoom('peers-learn', true, infoA);
    const b = await seatClass(second.room, 30);
    expect(b.map((s) => s.seat.seat.seed)).toEqual(list.slice(15, 30).flatMap((x) => [x, x]));
    const infoB = await infoOf(second.presenter, 30);
    expect(infoB.seedOffset).toBe(15);
    await closeAll([first.presenter, second.presenter, ...a.map((s) => s.client)]);
    // Round three: the list is spent, so every pair gets baseSeed + its index, after every seed handed out.
    const third = await pageRoom('peers-learn', true, infoB);
    const c = await seatClass(third.room, 4);
    const infoC = await infoOf(third.presenter, 4);
    expect(infoC.seeds).toEqual([]);
    const base = infoC.baseSeed;
    expect(base).toBeGreaterThan(Math.max(...list));
    expect(c.map((s) => s.seat.seat.seed)).toEqual([base, base, base + 1, base + 1]);
    await closeAll([third.presenter, ...b.map((s) => s.client), ...c.map((s) => s.client)]);
  });

  it('keeps baseSeed + index for a room made without a list (an older page), another seed chosen, or an experiment without one', async () => {
    const old = await createRoom(local.url, { preset: 'peers-learn', spec: presetSpec('peers-learn'), baseSeed: 110 });
    const seats = await seatClass(old.room, 3);
    expect(seats.map((s) => s.seat.seat.seed)).toEqual([110, 111, 112]);
    expect((await infoOf(old.presenter, 3)).seeds).toBeUndefined();
    // The presenter chose seed 40: the room starts there, as before.
    expect(newRoomSeeds('peers-learn', 40)).toEqual({ specSeed: 40, baseSeed: 40 });
    // quick has no list: an offset gives an empty one and baseSeed + index.
    expect(newRoomSeeds('quick', presetSpec('quick').seed).seedOffset).toBeUndefined();
    const none = await createRoom(local.url, { preset: 'quick', baseSeed: 7, seedOffset: 0 });
    const q = await seatClass(none.room, 2);
    expect(q.map((s) => s.seat.seat.seed)).toEqual([7, 8]);
    await closeAll([old.presenter, none.presenter, ...seats.map((s) => s.client), ...q.map((s) => s.client)]);
  });

  it('gives an overlap room its list, paired or not, and runs it again from the next multiple of its levels', async () => {
    const open = await pageRoom('overlap', false);
    const alone = await seatClass(open.room, 7);
    // Unpaired: seat k takes position k, shipped for level k mod 6, the level the room gives seat k.
    expect(alone.map((s) => [s.seat.seat.seed, s.seat.seat.level])).toEqual(
      roomSeedList('overlap').slice(0, 7).map((x, k) => [x, ['peer-S', 'peer-T', 'peer-B50', 'peer-B0', 'peer-B80', 'peer-X'][k % 6]]),
    );
    // 7 seats used positions 0-6: the next round starts at 12, where seat 0 trains level 0 again.
    expect(runAgainSeeds(await infoOf(open.presenter, 7)).seedOffset).toBe(12);
    await closeAll([open.presenter, ...alone.map((s) => s.client)]);
    const first = await pageRoom('overlap', true);
    const seats = await seatClass(first.room, 16);
    expect(seats.map((s) => s.seat.seat.seed)).toEqual(roomSeedList('overlap').slice(0, 8).flatMap((x) => [x, x]));
    const again = runAgainSeeds(await infoOf(first.presenter, 16));
    // 8 pairs used positions 0-7; pair 0 of the next room trains level 0 again, so it starts at 12.
    expect(again.seedOffset).toBe(12);
    await closeAll([first.presenter, ...seats.map((s) => s.client)]);
  });

  it('keeps a room’s seeds across a restart of the server', async () => {
    const { presenter, room } = await pageRoom('peers-learn', true);
    const before = await seatClass(room, 3);
    await closeAll([presenter, ...before.map((s) => s.client)]);
    await local.restart();
    const after = await joinRoom(local.url, room);
    expect([...before, after].map((s) => s.seat.seat.seed)).toEqual([109, 109, 110, 110]);
    await after.client.close();
  });

  // The property: no seat of a 30-seat class trains a warm start before its first RL step.
  for (const [preset, pairing] of [
    ['peers-learn', false],
    ['peers-learn', true],
    ['overlap', false],
    ['overlap', true],
  ] as const) {
    it(`every seat of a 30-seat ${pairing ? 'paired ' : ''}${preset} class loads shipped warm starts for every member it trains`, async () => {
      const { presenter, room } = await pageRoom(preset, pairing);
      const seats = await seatClass(room, 30);
      const trained: string[] = [];
      const folders = new Set<string>();
      for (const { seat } of seats) {
        const spec = { ...presetSpec(preset), seed: seat.seat.seed };
        const { maxLen } = warmStartInputs(spec);
        for (const id of membersOf(preset, seat.seat)) {
          const member = spec.members.find((m) => m.id === id)!;
          const fields = warmStartKeyFields(spec, member, maxLen, 'wasm');
          const found = shippedFile(keyOfFields(fields));
          // What loadOrBuildMember takes instead of training: a shipped file whose key fields are the run's.
          if (!found || found.file.origin !== 'shipped' || warmStartFileProblem(found.file, fields) !== null) trained.push(`seat ${seat.seat.index} (seed ${seat.seat.seed}) ${id}`);
          else folders.add(found.folder);
        }
      }
      expect(trained).toEqual([]);
      expect([...folders].sort()).toEqual(['', 'room/']);
      await closeAll([presenter, ...seats.map((s) => s.client)]);
    });
  }
});
