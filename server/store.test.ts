// The store after a failed write: LevelDB may leave a torn record in its log and append
// after it, and what follows it in its block is skipped when the log is read again (a restart): on
// a real full disk (server/load/diskFull.ts, needs root) a seat and events acknowledged after space
// was freed were gone after a restart. So the store reopens the database before its next write.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RoomStore, type SeatRecord } from './store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const seat = (events: number): SeatRecord => ({ index: 0, tokenHash: 'h', seed: 1, member: null, events, lastStep: 0, done: false, bytes: 0 });

describe('RoomStore after a failed write', () => {
  it('reopens the database before the next write, which is then stored and read back after a reopen of the directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    dirs.push(dir);
    const store = await RoomStore.open(dir);
    await store.appendEvent('r', seat(1), 0, '{"n":0}');
    // The failure at LevelDB's boundary: its next batch rejects as a full disk does.
    const db = (store as unknown as { db: { batch: (...a: unknown[]) => Promise<void>; status: string } }).db;
    const real = db.batch;
    db.batch = () => {
      db.batch = real;
      return Promise.reject(new Error('IO error: /data/000003.log: No space left on device'));
    };
    await expect(store.appendEvent('r', seat(2), 1, '{"n":1}')).rejects.toThrow(/No space left/);
    expect(store.needsReopen).toBe(true);
    const statuses: string[] = [];
    const open = db as unknown as { open: () => Promise<void> };
    const realOpen = open.open.bind(db);
    open.open = () => {
      statuses.push(db.status);
      return realOpen();
    };
    await store.appendEvent('r', seat(2), 1, '{"n":1}');
    expect(statuses).toEqual(['closed']);
    expect(store.needsReopen).toBe(false);
    expect(await store.readEvents('r', 0, 0, 5)).toEqual(['{"n":0}', '{"n":1}']);
    await store.close();
    const again = await RoomStore.open(dir);
    expect(await again.countEvents('r', 0)).toBe(2);
    expect((await again.loadAll()).length).toBe(0);
    await again.close();
  });

  it('keeps trying to reopen while the open fails, and writes once it works', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    dirs.push(dir);
    const store = await RoomStore.open(dir);
    const db = (store as unknown as { db: { put: (...a: unknown[]) => Promise<void>; open: () => Promise<void> } }).db;
    const realPut = db.put;
    db.put = () => {
      db.put = realPut;
      return Promise.reject(new Error('IO error: No space left on device'));
    };
    const seatOf = { index: 0, tokenHash: 'h', seed: 1, member: null, events: 0, lastStep: 0, done: false };
    await expect(store.putSeat('r', seatOf)).rejects.toThrow();
    const realOpen = db.open.bind(db);
    db.open = () => {
      db.open = realOpen;
      return Promise.reject(new Error('IO error: No space left on device'));
    };
    await expect(store.putSeat('r', seatOf)).rejects.toThrow();
    expect(store.needsReopen).toBe(true);
    await store.putSeat('r', seatOf);
    expect(store.needsReopen).toBe(false);
    await store.close();
  });
});
