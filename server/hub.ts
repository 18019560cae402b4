/**
 * The room server's authority: every parsed client message goes through `handle`, which decides
 * what the sender may do (only a presenter with the key starts or closes a room; a student writes
 * only the seat it joined), stores what must survive a restart before answering, and sends the
 * room's news to whom it concerns:
 *   - a stored event: `ack` to its seat, `events` to the presenters at once, and to the students
 *     in the feed, batched once a second (feed.ts);
 *   - a seat or status change: `room`, debounced, to everyone in the room;
 *   - an exchange (paired rooms): stored for the room's life and relayed to the partner.
 * The presenter's controls, freed seats and expiry are lifecycle.ts. Errors are plain-language
 * `error` frames; nothing a client sends can throw out of here.
 *
 * What must survive a restart is written to the store before the room in memory changes, so a
 * failed write leaves memory as the store has it. Budgets (limits.ts): rooms per creating
 * address, joins per address, seats and bytes per room, events and bytes per seat (events up to
 * the spec's steps), and the server's disk quota (`over-quota`, also told to the presenters).
 * Replays (a room to its presenter, a partner's exchanges to a seat) go a page at a time, each
 * after the socket has drained.
 */
import { joinCodeOf } from '../src/room/joinCode';
import { roomLevelList } from '../src/room/levels';
import type { ClientMessage, RoomErrorCode } from '../src/room/protocol';
import { ROOM_LIMITS } from '../src/room/protocol';
import { flushFeed } from './feed';
import { errorFrame, eventFrames, frame } from './frames';
import type { ExchangeBody, HubClient, HubOptions } from './hubTypes';
import { ROOM_EXPIRED, RoomLifecycle } from './lifecycle';
import { Room, listedSeeds, peerArmMembers, type Seat } from './roomState';
import { DiskUse } from './diskUse';
import { SeatWrites } from './seatWrites';
import { matchesHash, newSecret, secretHash } from './secrets';
import type { RoomStore, SeatRecord } from './store';

const MAX_CREATES_PER_CONNECTION = 10;
/** Events (or exchanges) read from the store at a time in a replay; the socket must have drained before each is sent. */
export const REPLAY_PAGE = 16;
const MAX_SEED = 2 ** 31 - 1;

/** Whether a store failure is a full disk (LevelDB says it in its IO error's message). */
export function isDiskFull(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || (e instanceof Error && /ENOSPC|No space left on device/i.test(e.message));
}

export class RoomHub {
  private readonly rooms = new Map<string, Room>();
  /** Bytes counted over every room and per address (diskUse.ts: limits.diskBytes, addressBytes). */
  private readonly disk = new DiskUse();
  private readonly writes: SeatWrites;
  private readonly life: RoomLifecycle;
  /** When each room's presenters were last told the disk is full. */
  private readonly diskFullNoted = new Map<string, number>();

  private constructor(
    readonly store: RoomStore,
    private readonly opts: HubOptions,
  ) {
    this.writes = new SeatWrites(store, opts, this.disk, {
      ownSeat: (client, what) => this.ownSeat(client, what),
      announce: (room) => this.announce(room),
      refuse: (client, code, message) => this.refuse(client, code, message),
    });
    this.life = new RoomLifecycle(store, opts, this.disk, {
      rooms: this.rooms,
      room: (id) => this.room(id),
      announce: (room) => this.announce(room),
      disconnected: (client) => this.disconnected(client),
      fail: (client, code, message) => this.fail(client, code, message),
      forget: (id) => this.diskFullNoted.delete(id),
    });
  }

  /** A hub with every room the store holds (expired ones deleted). */
  static async load(store: RoomStore, opts: HubOptions): Promise<RoomHub> {
    const hub = new RoomHub(store, opts);
    for (const { room, seats } of await store.loadAll()) {
      const r = new Room(room, seats, opts.partnerWaitMs);
      hub.rooms.set(room.id, r);
      for (const seat of r.taken()) hub.disk.add(r.addressOf(seat), seat.bytes ?? 0);
    }
    await hub.sweep();
    return hub;
  }

  /** The id of the open or running room whose join code is `code` (null: none; a closed room's code leads nowhere). */
  roomIdByCode(code: string): string | null {
    for (const room of this.rooms.values()) if (!room.deleting && room.record.status !== 'closed' && joinCodeOf(room.id) === code) return room.id;
    return null;
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  /** Bytes counted over every room (diskUse.ts). */
  get bytes(): number {
    return this.disk.bytes;
  }

  /** Bytes counted for the seats one address took. */
  bytesOf(address: string): number {
    return this.disk.of(address);
  }

  /** A live room by id (an expired one counts as gone even before the sweep deletes it, as does one being deleted). */
  room(id: string): Room | null {
    const room = this.rooms.get(id);
    return room && !room.deleting && room.record.expiresAt > this.opts.now() ? room : null;
  }

  async handle(client: HubClient, msg: ClientMessage): Promise<void> {
    try {
      await this.dispatch(client, msg);
    } catch (e) {
      // Every write goes to the store before memory changes, so a failed one changed nothing. A full
      // disk is a budget spent (over-quota, the presenters told; the connection stays); any other
      // failure ends this connection (connection.ts), and the client connects again.
      if (!isDiskFull(e)) throw e;
      this.diskFull(client, msg.t);
    }
  }

  /** The store's disk is full: the client and its room's presenters are told (the presenters at most once a minute). */
  private diskFull(client: HubClient, what: string): void {
    const words = `The room server's disk is full: this ${what} was not stored (nothing changed); its operator must free space or delete rooms.`;
    this.refuse(client, 'over-quota', words);
    const role = client.role;
    if (role.kind !== 'student') return;
    const now = this.opts.now();
    if (now - (this.diskFullNoted.get(role.room.id) ?? -Infinity) <= 60_000) return;
    this.diskFullNoted.set(role.room.id, now);
    const f = errorFrame('over-quota', `The room server's disk is full: a student's ${what} was not stored; its operator must free space or delete rooms.`);
    for (const p of role.room.presenters) p.send(f);
  }

  private dispatch(client: HubClient, msg: ClientMessage): Promise<void> | void {
    switch (msg.t) {
      case 'ping':
        return client.send(frame({ t: 'pong' }));
      case 'create':
        return this.create(client, msg);
      case 'present':
        return this.present(client, msg.room, msg.key);
      case 'join':
        return this.join(client, msg.room, msg.seat, msg.takeover ?? false);
      case 'start':
      case 'close':
        return this.life.setStatus(client, msg.t);
      case 'lock':
        return this.life.lock(client, msg.locked);
      case 'remove-seat':
        return this.life.removeSeat(client, msg.seat);
      case 'event':
        return this.writes.event(client, msg.seq, msg.event);
      case 'exchange':
        return this.writes.exchange(client, msg);
    }
  }

  /** A connection went away: its seat shows as disconnected, a presenter stops receiving. */
  disconnected(client: HubClient): void {
    const role = client.role;
    client.role = { kind: 'none' };
    if (role.kind === 'presenter') role.room.presenters.delete(client);
    if (role.kind === 'student') {
      const room = role.room;
      room.students.delete(client);
      const seat = room.seats[role.seat];
      if (seat && seat.conn === client) {
        seat.conn = null;
        this.announce(room);
        this.life.maybeFreeLater(room, seat);
      }
    }
  }

  /** Delete every expired room and its data (lifecycle.ts); returns how many were deleted. */
  sweep(): Promise<number> {
    return this.life.sweep();
  }

  /** Send each room's students the events stored since their last batch (the hub's timer, once a second). */
  async flushFeeds(): Promise<void> {
    for (const room of this.rooms.values()) {
      if (room.feedDirty && room.students.size > 0) await flushFeed(room, this.store, this.opts.now(), this.opts.feedBytesPerSecond);
    }
  }

  /** Stop the timers (the server is closing). */
  stop(): void {
    for (const room of this.rooms.values()) this.life.stopTimers(room);
  }

  private fail(client: HubClient, code: RoomErrorCode, message: string): void {
    client.send(errorFrame(code, message));
  }

  /** Broadcast the room to everyone in it, soon (several changes in a row make one broadcast). */
  private announce(room: Room): void {
    if (room.roomTimer) return;
    room.roomTimer = setTimeout(() => {
      room.roomTimer = null;
      const f = frame({ t: 'room', room: room.info() });
      for (const peer of room.everyone()) peer.send(f);
    }, this.opts.roomDebounceMs);
    room.roomTimer.unref?.();
  }

  private addressesFrame(): string {
    return frame({ t: 'addresses', origins: this.opts.origins().slice(0, 16).filter((o) => o.length <= 100) });
  }

  private async create(client: HubClient, msg: Extract<ClientMessage, { t: 'create' }>): Promise<void> {
    if (client.role.kind !== 'none') return this.fail(client, 'not-allowed', 'This connection already presents a room or holds a seat; open a new connection to create a room.');
    if (client.creates >= MAX_CREATES_PER_CONNECTION) return this.fail(client, 'not-allowed', `One connection creates at most ${MAX_CREATES_PER_CONNECTION} rooms.`);
    const limits = this.opts.limits;
    const mine = [...this.rooms.values()].filter((r) => r.record.creator === client.address && this.room(r.id)).length;
    if (mine >= limits.roomsPerAddress) return this.refuse(client, 'over-quota', `One address has at most ${limits.roomsPerAddress} live rooms on this server; close one, or wait until one expires.`);
    if (this.rooms.size >= this.opts.maxRooms) return this.refuse(client, 'over-quota', `This server holds its maximum of ${this.opts.maxRooms} rooms; try again when one has expired.`);
    if (this.disk.bytes >= limits.diskBytes) return this.refuse(client, 'over-quota', `This server has used its disk quota (${Math.round(limits.diskBytes / 2 ** 20)} MiB); its operator can raise it or delete old rooms.`);
    if (msg.pairing && !peerArmMembers(msg.spec)) {
      const arms = msg.spec.arms.map((a) => `${a.id} (${a.scheme}, ${a.members.length} members)`).join(', ');
      return this.fail(client, 'bad-message', `A paired room needs an arm with the peer reward and two members, whose members two students train; this experiment has none (its arms: ${arms}).`);
    }
    const lastOffset = msg.pairing ? ROOM_LIMITS.seats / 2 - 1 : ROOM_LIMITS.seats - 1;
    if (msg.baseSeed + lastOffset > MAX_SEED) return this.fail(client, 'bad-message', `The base seed must be at most ${MAX_SEED - lastOffset}, so that every seat's seed (base + ${lastOffset} at most) is a valid seed.`);
    const now = this.opts.now();
    const levels = roomLevelList(msg.spec, msg.pairing);
    const key = newSecret();
    // A new id until its join code is no live room's (joinCode.ts: a few live rooms, so almost never a second try).
    let id = newSecret();
    while (this.roomIdByCode(joinCodeOf(id)) !== null) id = newSecret();
    const room = new Room(
      {
        id,
        keyHash: secretHash(key),
        name: msg.name,
        preset: msg.preset,
        spec: msg.spec,
        baseSeed: msg.baseSeed,
        pairing: msg.pairing,
        ...listedSeeds(msg),
        ...(levels.length > 0 ? { levels } : {}),
        status: 'open',
        locked: false,
        creator: client.address,
        createdAt: now,
        expiresAt: now + this.opts.ttlMs,
      },
      [],
      this.opts.partnerWaitMs,
    );
    client.creates++;
    await this.store.putRoom(room.record);
    this.rooms.set(room.id, room);
    // The creator holds the key: it presents the room from here on.
    client.role = { kind: 'presenter', room };
    room.presenters.add(client);
    client.send(frame({ t: 'created', room: room.id, key }));
    client.send(frame({ t: 'room', room: room.info() }));
    client.send(this.addressesFrame());
    // Only the id's first characters: the id is the join link's secret, and logs get shared.
    this.opts.log(`room ${room.id.slice(0, 4)}… created from ${client.address}: "${room.record.name}"${room.record.pairing ? ', paired' : ''}${room.levels.length > 0 ? ` (levels ${room.levels.join(', ')})` : ''}`, client.address);
  }

  /** An error for a budget or a timing, logged with the client's address. */
  private refuse(client: HubClient, code: RoomErrorCode, message: string): void {
    this.opts.log(`refused ${client.address}: ${code}: ${message}`, client.address);
    this.fail(client, code, message);
  }

  private async present(client: HubClient, id: string, key: string): Promise<void> {
    const role = client.role;
    if (role.kind === 'student' || (role.kind === 'presenter' && role.room.id !== id)) {
      return this.fail(client, 'not-allowed', 'This connection already holds a seat or presents another room; open a new connection to present this one.');
    }
    const room = this.room(id);
    if (!room) return this.fail(client, 'no-such-room', 'There is no such room on this server (it may have expired).');
    if (!matchesHash(key, room.record.keyHash)) return this.refuse(client, 'not-allowed', "That is not this room's presenter key.");
    client.role = { kind: 'presenter', room };
    room.presenters.add(client);
    // The whole room first, then what came in meanwhile: counts are taken now, and every event
    // stored from here on is sent live (queued until the snapshot is out). The snapshot goes a
    // page at a time, each once the socket has sent the last: a presenter that does not read
    // holds at most a page, and is dropped when it stays behind (connection.ts).
    const counts = room.seats.map((s) => s?.events ?? 0);
    client.hold();
    try {
      client.sendNow(frame({ t: 'room', room: room.info() }));
      client.sendNow(this.addressesFrame());
      for (let s = 0; s < counts.length; s++) {
        for (let from = 0; from < counts[s]; from += REPLAY_PAGE) {
          const events = await this.store.readEvents(room.id, s, from, Math.min(counts[s], from + REPLAY_PAGE));
          for (const f of eventFrames(s, from, events)) {
            if (!(await client.drained())) return;
            client.sendNow(f);
          }
        }
      }
    } finally {
      client.release();
    }
  }

  private async join(client: HubClient, id: string, claim: { index: number; token: string } | null, takeover: boolean): Promise<void> {
    if (client.role.kind !== 'none') return this.fail(client, 'not-allowed', 'This connection already holds a seat or presents a room; open a new connection to join.');
    const room = this.room(id);
    if (!room) return this.fail(client, 'no-such-room', 'There is no such room on this server (it may have expired): ask for a new link.');
    if (room.record.status === 'closed') return this.fail(client, 'room-closed', 'This room is closed: the presenter has ended it.');
    if (!this.opts.mayJoin(client.address)) return this.refuse(client, 'over-quota', `At most ${this.opts.limits.joinsPerMinute} joins a minute from one address: wait a little and join again.`);
    let seat: Seat;
    let token: string;
    if (claim) {
      const held = room.seats[claim.index];
      if (!held || held.freeing || !matchesHash(claim.token, held.tokenHash)) return this.fail(client, 'bad-seat', `This room has no seat ${claim.index} with that token: join again without a seat to take a new one.`);
      seat = held;
      token = claim.token;
      if (seat.conn && seat.conn !== client) {
        if (!takeover) return this.fail(client, 'seat-in-use', 'This seat is open in another tab or window: use that one, or take the seat over here.');
        // The student chose this tab: the other one is told and closed, and does not come back by itself.
        const old = seat.conn as HubClient;
        old.send(errorFrame('seat-in-use', 'This seat was taken over by another tab or window.'));
        this.disconnected(old);
        old.close(4001, 'seat joined from another connection');
      }
    } else {
      if (room.record.locked) return this.fail(client, 'room-locked', 'The presenter has locked this room: no new seats (a student who has one may still come back to it).');
      const taken = await this.takeSeat(room, client.address);
      if (taken === 'deleting') return this.fail(client, 'no-such-room', ROOM_EXPIRED);
      if (!taken) return this.fail(client, 'room-full', `This room is full: it has ${ROOM_LIMITS.seats} seats.`);
      ({ seat, token } = taken);
    }
    // The store write above took time: the connection may be gone, or another tab may hold the seat.
    if (!client.open()) return this.life.maybeFreeLater(room, seat);
    if (seat.conn && seat.conn !== client) return this.fail(client, 'seat-in-use', 'This seat is open in another tab or window: use that one, or take the seat over here.');
    if (seat.leftTimer) clearTimeout(seat.leftTimer);
    seat.leftTimer = undefined;
    seat.conn = client;
    // A seat taken while the room runs, with no one beside it, trains alone if no partner comes.
    this.life.aloneLater(room, seat);
    client.role = { kind: 'student', room, seat: seat.index };
    room.students.set(client, { seat: seat.index, sent: [], budget: this.opts.feedBytesPerSecond, refilled: this.opts.now(), turn: 0 });
    room.feedDirty = true;
    client.send(frame({ t: 'seat', seat: room.seatInfo(seat), token, stored: seat.events }));
    client.send(frame({ t: 'room', room: room.info() }));
    this.announce(room);
    const partner = room.partnerOf(seat.index);
    if (partner !== null) await this.replayExchanges(client, room, partner);
  }

  /** A new seat at the lowest free index, stored before the room has it; null when the room is full ('deleting': the sweep began deleting the room meanwhile). */
  private takeSeat(room: Room, address: string): Promise<{ seat: Seat; token: string } | 'deleting' | null> {
    const op = room.seatOps.then(async () => {
      if (room.deleting) return 'deleting' as const;
      const index = room.freeIndex(ROOM_LIMITS.seats);
      if (index === null) return null;
      const token = newSecret();
      const level = room.levelOf(index);
      const record: SeatRecord = {
        index,
        tokenHash: secretHash(token),
        seed: room.seedOf(index),
        member: room.memberOf(index),
        ...(level === null ? {} : { level }),
        // A seat taken while the room runs, whose partner's seat is empty or trains alone, trains alone too.
        ...(room.aloneAt(index) ? { alone: true } : {}),
        events: 0,
        lastStep: 0,
        done: false,
        bytes: 0,
        address,
      };
      await this.store.putSeat(room.id, record);
      const seat: Seat = { ...record, conn: null, chain: Promise.resolve() };
      room.seats[index] = seat;
      return { seat, token };
    });
    room.seatOps = op.catch(() => undefined);
    return op;
  }

  /** A partner's stored exchanges to a seat, a page at a time as its socket drains. */
  private async replayExchanges(client: HubClient, room: Room, partner: number): Promise<void> {
    let after: string | null = null;
    for (;;) {
      const page = await this.store.readExchangePage(room.id, partner, after, REPLAY_PAGE);
      for (const [, x] of page) {
        if (!(await client.drained())) return;
        client.send(frame({ t: 'exchange', ...(JSON.parse(x) as ExchangeBody) }));
      }
      if (page.length < REPLAY_PAGE) return;
      after = page[page.length - 1][0];
    }
  }

  /** The seat a student's message is about, or null (with the reason sent). */
  ownSeat(client: HubClient, what: string): { room: Room; seat: Seat } | null {
    const role = client.role;
    if (role.kind !== 'student') {
      this.fail(client, 'not-allowed', `Only a seated student sends ${what}: join the room first.`);
      return null;
    }
    const room = role.room;
    if (this.room(room.id) !== room) {
      this.fail(client, 'no-such-room', ROOM_EXPIRED);
      return null;
    }
    if (room.record.status === 'closed') {
      this.fail(client, 'room-closed', 'This room is closed: nothing more is stored.');
      return null;
    }
    // A seat being freed is not refused here: its writes wait behind the delete (freeSeat).
    const seat = room.seats[role.seat];
    if (!seat) {
      this.fail(client, 'seat-removed', 'This seat was freed: nothing more is stored for it.');
      return null;
    }
    return { room, seat };
  }
}
