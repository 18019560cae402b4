/**
 * A room's life after its creation: the presenter's controls (start, close, lock, remove a seat),
 * seats freed (by the presenter, or when their student left before the room started) and expiry
 * (`sweep` deletes expired rooms and all their data, from the store first).
 *
 * Every write of a room is on one of its chains: seat changes (`seatOps`), the record's writes
 * (`recordOps`: the presenter's start, close and lock, one after the other, each on the record as
 * the one before left it) and each seat's events and answers (`seat.chain`). The sweep marks the
 * room `deleting` (from then on room() is null and a queued write that has not started is refused
 * with `no-such-room`), waits for the writes under way (Room.settled), and only then deletes: no
 * write lands in the store after its delete, so an expired room never comes back at a restart.
 */
import type { RoomErrorCode } from '../src/room/protocol';
import type { DiskUse } from './diskUse';
import { errorFrame, frame } from './frames';
import type { HubClient, HubOptions } from './hubTypes';
import { recordOf, type Room, type Seat } from './roomState';
import type { RoomRecord, RoomStore } from './store';

/** What the lifecycle needs of the hub. */
export interface LifecycleHub {
  readonly rooms: Map<string, Room>;
  room(id: string): Room | null;
  announce(room: Room): void;
  disconnected(client: HubClient): void;
  fail(client: HubClient, code: RoomErrorCode, message: string): void;
  /** The room is deleted: the hub drops what it noted of it. */
  forget(id: string): void;
}

/** What a write that finds its room being deleted is told (the sweep tells everyone the same code). */
export const ROOM_EXPIRED = 'This room has expired.';

export class RoomLifecycle {
  /** The sweep under way (null: none). */
  private sweeping: Promise<number> | null = null;

  constructor(
    private readonly store: RoomStore,
    private readonly opts: HubOptions,
    /** Characters stored over every room, shared with the hub. */
    private readonly disk: DiskUse,
    private readonly hub: LifecycleHub,
  ) {}

  /** The room a presenter's message is about, or null (with the reason sent). */
  private ownRoom(client: HubClient, what: string): Room | null {
    const role = client.role;
    if (role.kind !== 'presenter') {
      this.hub.fail(client, 'not-allowed', `Only the presenter may ${what}.`);
      return null;
    }
    if (this.hub.room(role.room.id) !== role.room) {
      this.hub.fail(client, 'no-such-room', ROOM_EXPIRED);
      return null;
    }
    return role.room;
  }

  /**
   * Write the room's record changed by `change` (null: nothing to write), on the room's record
   * chain: the change sees the record as the writes before it left it (two presenter tabs' lock
   * and start both stay), and a write queued when the sweep began deleting the room is refused.
   */
  private writeRecord(client: HubClient, room: Room, change: (r: RoomRecord) => RoomRecord | null, after?: () => Promise<void>): Promise<void> {
    const op = room.recordOps.then(async () => {
      if (room.deleting) return this.hub.fail(client, 'no-such-room', ROOM_EXPIRED);
      const record = change(room.record);
      if (!record) return;
      await this.store.putRoom(record);
      // What follows the write (the start's seats marked alone) is done before memory says so: no
      // room message says the room runs before it says who trains alone.
      await after?.();
      room.record = record;
      this.hub.announce(room);
    });
    room.recordOps = op.catch(() => undefined);
    return op;
  }

  setStatus(client: HubClient, what: 'start' | 'close'): Promise<void> {
    const room = this.ownRoom(client, `${what} the room`);
    if (!room) return Promise.resolve();
    const status: RoomRecord['status'] = what === 'start' ? 'running' : 'closed';
    const written = this.writeRecord(
      client,
      room,
      (r) => {
        if (r.status === 'closed') {
          this.hub.fail(client, 'room-closed', 'This room is closed already.');
          return null;
        }
        return r.status === status ? null : { ...r, status };
      },
      // The room message that says it runs already says which seats train alone.
      status === 'running' ? () => this.markAlone(room, room.taken(), true) : undefined,
    );
    if (status !== 'running') return written;
    // A student who took a seat while the start was being written, with no one beside it, waits for a partner as any late one does.
    return written.then(() => {
      for (const seat of room.taken()) this.aloneLater(room, seat);
    });
  }

  /**
   * At the start of a paired room, each seat whose partner's seat is empty (the odd student out)
   * trains both members of its level itself: it is marked `alone`, stored on its write chain (an
   * event's record rewrite keeps it), before the room message says the room runs. Later, the same
   * for a seat that waited partnerWaitMs with the seat beside it empty (aloneLater). A seat that
   * had streamed a member part (its partner's seat was freed after the start) starts again: its
   * events and answers are deleted with the same write, its bytes counted out, the class's feeds
   * start its index over, and its student is told (`alone`), so that its run of the pair, from
   * the base on, is what the room holds. On the seat changes' chain, so a join at the same time
   * sees the seat as it is (roomState.ts aloneAt).
   */
  private markAlone(room: Room, seats: Seat[], starting = false): Promise<void> {
    const op = room.seatOps.then(async () => {
      if (room.deleting) return;
      for (const seat of seats) {
        if (room.seats[seat.index] !== seat || !room.mayGoAlone(seat, starting)) continue;
        const write = seat.chain.then(async () => {
          if (room.deleting || !room.mayGoAlone(seat, starting)) return;
          await this.store.restartSeat(room.id, { ...recordOf(seat), alone: true, events: 0, lastStep: 0, done: false, bytes: 0 });
          this.disk.add(room.addressOf(seat), -(seat.bytes ?? 0));
          Object.assign(seat, { alone: true, events: 0, lastStep: 0, done: false, bytes: 0 });
          for (const feed of room.students.values()) feed.sent[seat.index] = 0;
          seat.conn?.send(frame({ t: 'alone', seat: room.seatInfo(seat) }));
        });
        seat.chain = write.catch(() => undefined);
        await write;
      }
    });
    room.seatOps = op.catch(() => undefined);
    return op;
  }

  lock(client: HubClient, locked: boolean): Promise<void> {
    const room = this.ownRoom(client, 'lock the room');
    if (!room) return Promise.resolve();
    return this.writeRecord(client, room, (r) => ((r.locked ?? false) === locked ? null : { ...r, locked }));
  }

  async removeSeat(client: HubClient, index: number): Promise<void> {
    const room = this.ownRoom(client, 'remove a seat');
    if (!room) return;
    if (!room.seats[index]) return this.hub.fail(client, 'bad-seat', `This room has no seat ${index}.`);
    await this.freeSeat(room, index, 'the presenter removed it');
  }

  /**
   * A seat of a running paired room with no one beside it (a student who joined after the start,
   * or one whose partner's seat was freed) trains alone if the seat beside it is still empty after
   * partnerWaitMs: the class never waits on a partner who is not coming. A partner who comes
   * meanwhile makes it a pair (markAlone looks again when the time is up), and a newcomer in the
   * freed seat takes the partner's member and gets the answers so far.
   */
  aloneLater(room: Room, seat: Seat): void {
    if (!room.mayGoAlone(seat) || seat.aloneTimer) return;
    seat.aloneTimer = setTimeout(() => {
      seat.aloneTimer = undefined;
      if (room.seats[seat.index] !== seat || !this.hub.room(room.id) || !room.mayGoAlone(seat)) return;
      this.markAlone(room, [seat])
        .then(() => this.hub.announce(room))
        .catch((e: unknown) => this.opts.log(`seat ${seat.index} of ${room.id.slice(0, 4)}… could not be set to train alone: ${e instanceof Error ? e.message : String(e)}`));
    }, this.opts.partnerWaitMs);
    seat.aloneTimer.unref?.();
  }

  /**
   * A seat whose student left before the room started, with nothing stored, is freed unless they
   * are back within seatGraceMs (a reload is back in a second or two): joining and leaving cannot
   * use up a room's seats.
   */
  maybeFreeLater(room: Room, seat: Seat): void {
    if (room.record.status !== 'open' || seat.events > 0 || seat.leftTimer) return;
    seat.leftTimer = setTimeout(() => {
      seat.leftTimer = undefined;
      if (seat.conn || seat.events > 0 || room.record.status !== 'open' || room.seats[seat.index] !== seat || !this.hub.room(room.id)) return;
      this.freeSeat(room, seat.index, 'its student left before the room started').catch((e: unknown) => this.opts.log(`freeing seat ${seat.index} of ${room.id.slice(0, 4)}…: ${e instanceof Error ? e.message : String(e)}`));
    }, this.opts.seatGraceMs);
    seat.leftTimer.unref?.();
  }

  /**
   * Free a seat: its pending writes finish, its record, events and exchanges are deleted from the
   * store, and only then is its student told (`seat-removed`) and disconnected and its index free
   * in memory (for the next new student, with the same seed and member). The delete is on the
   * seat's write chain: what the student sends meanwhile waits behind it, and is refused if the
   * seat is gone, stored if the delete failed (the seat then stays as it was, its student seated).
   * A room being deleted frees nothing (its sweep deletes every seat).
   */
  private freeSeat(room: Room, index: number, why: string): Promise<void> {
    const op = room.seatOps.then(async () => {
      const seat = room.seats[index];
      if (!seat || room.deleting) return;
      seat.freeing = true;
      const deleted = seat.chain.then(() => this.store.deleteSeat(room.id, index));
      seat.chain = deleted.catch(() => undefined);
      try {
        await deleted;
      } catch (e) {
        seat.freeing = false;
        throw e;
      }
      const conn = seat.conn as HubClient | null;
      if (conn) {
        conn.send(errorFrame('seat-removed', `This seat was freed: ${why}.`));
        this.hub.disconnected(conn);
        conn.close(4003, 'seat removed');
      }
      if (seat.leftTimer) clearTimeout(seat.leftTimer);
      if (seat.aloneTimer) clearTimeout(seat.aloneTimer);
      room.seats[index] = null;
      this.disk.add(room.addressOf(seat), -(seat.bytes ?? 0));
      // Every student's feed starts the index over: its next occupant's events are new.
      for (const feed of room.students.values()) feed.sent[index] = 0;
      this.opts.log(`seat ${index} of ${room.id.slice(0, 4)}… freed: ${why}`);
      // Its partner waits partnerWaitMs from now for someone to take the seat, then trains alone.
      const partner = room.record.pairing ? room.seats[index ^ 1] : null;
      if (partner) {
        if (partner.aloneTimer) clearTimeout(partner.aloneTimer);
        partner.aloneTimer = undefined;
        this.aloneLater(room, partner);
      }
      this.hub.announce(room);
    });
    room.seatOps = op.catch(() => undefined);
    return op;
  }

  /**
   * Delete every expired room and its data, telling who is still connected; returns how many were
   * deleted. The store goes first: a room whose delete fails stays in memory (expired: refused to
   * everyone, room() is null), its bytes still counted against the disk quota since they may still
   * be on disk, and is tried again at the next sweep; the failure is logged with the room's short
   * id and the sweep goes on with the other rooms (it never throws). One sweep at a time (the
   * timer's and the start's): a second call waits for the one under way.
   */
  sweep(): Promise<number> {
    this.sweeping ??= this.sweepOnce().finally(() => (this.sweeping = null));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<number> {
    const now = this.opts.now();
    let n = 0;
    for (const room of [...this.hub.rooms.values()]) {
      if (room.record.expiresAt > now) continue;
      room.deleting = true;
      this.stopTimers(room);
      try {
        // Writes that began before (presenter's included) finish first; none starts after
        // (deleting), so nothing lands in the store after its delete.
        await room.settled();
        await this.store.deleteRoom(room.id);
      } catch (e) {
        this.opts.log(`sweep: could not delete expired room ${room.id.slice(0, 4)}… (${e instanceof Error ? e.message : String(e)}); its data stays counted and is deleted at the next sweep`);
        this.expel(room, 'This room has expired: nothing more can be done in it, and the server deletes everything in it.');
        continue;
      }
      this.hub.rooms.delete(room.id);
      for (const seat of room.taken()) this.disk.add(room.addressOf(seat), -(seat.bytes ?? 0));
      this.hub.forget(room.id);
      this.expel(room, 'This room has expired; it and everything in it are deleted.');
      n++;
    }
    return n;
  }

  /** Tell everyone still in an expired room, and close their connections (each leaves the room as it closes). */
  private expel(room: Room, words: string): void {
    for (const peer of room.everyone()) {
      peer.send(errorFrame('no-such-room', words));
      peer.close(4004, 'room expired');
    }
  }

  /** Stop a room's timers (its debounced broadcast, its seats' grace). */
  stopTimers(room: Room): void {
    if (room.roomTimer) clearTimeout(room.roomTimer);
    for (const s of room.seats) {
      if (s?.leftTimer) clearTimeout(s.leftTimer);
      if (s?.aloneTimer) clearTimeout(s.aloneTimer);
    }
  }
}
