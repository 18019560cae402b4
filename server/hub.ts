/**
 * The room server's authority: every parsed client message goes through `handle`, which decides
 * what the sender may do (only a presenter with the key starts or closes a room; a student writes
 * only the seat it joined), stores what must survive a restart before answering, and sends the
 * room's news to whom it concerns:
 *   - a stored event: `ack` to its seat, `events` to the presenters at once, and to the students
 *     in the feed, batched once a second (feed.ts);
 *   - a seat or status change: `room`, debounced, to everyone in the room;
 *   - an exchange (paired rooms): stored for the room's life and relayed to the partner.
 * Rooms expire (`sweep` deletes them and all their data). Errors are plain-language `error` frames;
 * nothing a client sends can throw out of here.
 */
import type { ClientMessage, RoomErrorCode, SeatEvent } from '../src/room/protocol';
import { ROOM_LIMITS, streamedEvent } from '../src/room/protocol';
import { flushFeed } from './feed';
import { errorFrame, eventFrames, frame } from './frames';
import { Room, peerArmMembers, type RoomPeer, type Seat } from './roomState';
import { matchesHash, newSecret, secretHash } from './secrets';
import type { RoomStore, SeatRecord } from './store';

/** What a connection is to the hub. */
export type Role = { kind: 'none' } | { kind: 'presenter'; room: Room } | { kind: 'student'; room: Room; seat: number };

export interface HubClient extends RoomPeer {
  role: Role;
  /** Rooms this connection created (at most MAX_CREATES_PER_CONNECTION). */
  creates: number;
  /** Queue frames sent with send() until release() (a presenter's snapshot goes first, with sendNow). */
  hold(): void;
  release(): void;
  sendNow(frame: string): void;
}

export interface HubOptions {
  /** A room's life from its creation, in ms. */
  ttlMs: number;
  now: () => number;
  /** Rooms the server holds at most. */
  maxRooms: number;
  /** Each student's budget for the class feed, bytes a second (feed.ts). */
  feedBytesPerSecond: number;
  /** Delay of the debounced `room` broadcast, ms. */
  roomDebounceMs: number;
  log: (line: string) => void;
}

const MAX_CREATES_PER_CONNECTION = 10;
/** An exchange as stored (the message without its t). */
type ExchangeBody = Omit<Extract<ClientMessage, { t: 'exchange' }>, 't'>;
const MAX_SEED = 2 ** 31 - 1;

export class RoomHub {
  private readonly rooms = new Map<string, Room>();

  private constructor(
    readonly store: RoomStore,
    private readonly opts: HubOptions,
  ) {}

  /** A hub with every room the store holds (expired ones deleted). */
  static async load(store: RoomStore, opts: HubOptions): Promise<RoomHub> {
    const hub = new RoomHub(store, opts);
    for (const { room, seats } of await store.loadAll()) hub.rooms.set(room.id, new Room(room, seats));
    await hub.sweep();
    return hub;
  }

  get roomCount(): number {
    return this.rooms.size;
  }

  /** A live room by id (an expired one counts as gone even before the sweep deletes it). */
  room(id: string): Room | null {
    const room = this.rooms.get(id);
    return room && room.record.expiresAt > this.opts.now() ? room : null;
  }

  async handle(client: HubClient, msg: ClientMessage): Promise<void> {
    switch (msg.t) {
      case 'ping':
        return client.send(frame({ t: 'pong' }));
      case 'create':
        return this.create(client, msg);
      case 'present':
        return this.present(client, msg.room, msg.key);
      case 'join':
        return this.join(client, msg.room, msg.seat);
      case 'start':
      case 'close':
        return this.setStatus(client, msg.t);
      case 'event':
        return this.event(client, msg.seq, msg.event);
      case 'exchange':
        return this.exchange(client, msg);
    }
  }

  /** A connection went away: its seat shows as disconnected, a presenter stops receiving. */
  disconnected(client: HubClient): void {
    const role = client.role;
    client.role = { kind: 'none' };
    if (role.kind === 'presenter') role.room.presenters.delete(client);
    if (role.kind === 'student') {
      role.room.students.delete(client);
      const seat = role.room.seats[role.seat];
      if (seat.conn === client) {
        seat.conn = null;
        this.announce(role.room);
      }
    }
  }

  /** Delete every expired room and its data, telling who is still connected; returns how many. */
  async sweep(): Promise<number> {
    const now = this.opts.now();
    let n = 0;
    for (const room of [...this.rooms.values()]) {
      if (room.record.expiresAt > now) continue;
      this.rooms.delete(room.id);
      if (room.roomTimer) clearTimeout(room.roomTimer);
      for (const peer of room.everyone()) {
        peer.send(errorFrame('no-such-room', 'This room has expired; it and everything in it are deleted.'));
        peer.close(4004, 'room expired');
      }
      await this.store.deleteRoom(room.id);
      n++;
    }
    return n;
  }

  /** Send each room's students the events stored since their last batch (the hub's timer, once a second). */
  async flushFeeds(): Promise<void> {
    for (const room of this.rooms.values()) {
      if (room.feedDirty && room.students.size > 0) await flushFeed(room, this.store, this.opts.now(), this.opts.feedBytesPerSecond);
    }
  }

  /** Stop the debounce timers (the server is closing). */
  stop(): void {
    for (const room of this.rooms.values()) if (room.roomTimer) clearTimeout(room.roomTimer);
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

  private async create(client: HubClient, msg: Extract<ClientMessage, { t: 'create' }>): Promise<void> {
    if (client.role.kind !== 'none') return this.fail(client, 'not-allowed', 'This connection already presents a room or holds a seat; open a new connection to create a room.');
    if (client.creates >= MAX_CREATES_PER_CONNECTION) return this.fail(client, 'not-allowed', `One connection creates at most ${MAX_CREATES_PER_CONNECTION} rooms.`);
    if (this.rooms.size >= this.opts.maxRooms) return this.fail(client, 'not-allowed', `This server holds its maximum of ${this.opts.maxRooms} rooms; try again when one has expired.`);
    if (msg.pairing && !peerArmMembers(msg.spec)) {
      const arms = msg.spec.arms.map((a) => `${a.id} (${a.scheme}, ${a.members.length} members)`).join(', ');
      return this.fail(client, 'bad-message', `A paired room needs an arm with the peer reward and two members, whose members two students train; this experiment has none (its arms: ${arms}).`);
    }
    const lastOffset = msg.pairing ? ROOM_LIMITS.seats / 2 - 1 : ROOM_LIMITS.seats - 1;
    if (msg.baseSeed + lastOffset > MAX_SEED) return this.fail(client, 'bad-message', `The base seed must be at most ${MAX_SEED - lastOffset}, so that every seat's seed (base + ${lastOffset} at most) is a valid seed.`);
    const now = this.opts.now();
    const key = newSecret();
    const room = new Room(
      {
        id: newSecret(),
        keyHash: secretHash(key),
        name: msg.name,
        preset: msg.preset,
        spec: msg.spec,
        baseSeed: msg.baseSeed,
        pairing: msg.pairing,
        status: 'open',
        createdAt: now,
        expiresAt: now + this.opts.ttlMs,
      },
      [],
    );
    client.creates++;
    this.rooms.set(room.id, room);
    await this.store.putRoom(room.record);
    // The creator holds the key: it presents the room from here on.
    client.role = { kind: 'presenter', room };
    room.presenters.add(client);
    client.send(frame({ t: 'created', room: room.id, key }));
    client.send(frame({ t: 'room', room: room.info() }));
    // Only the id's first characters: the id is the join link's secret, and logs get shared.
    this.opts.log(`room ${room.id.slice(0, 4)}… created: "${room.record.name}"${room.record.pairing ? ', paired' : ''}`);
  }

  private async present(client: HubClient, id: string, key: string): Promise<void> {
    const role = client.role;
    if (role.kind === 'student' || (role.kind === 'presenter' && role.room.id !== id)) {
      return this.fail(client, 'not-allowed', 'This connection already holds a seat or presents another room; open a new connection to present this one.');
    }
    const room = this.room(id);
    if (!room) return this.fail(client, 'no-such-room', 'There is no such room on this server (it may have expired).');
    if (!matchesHash(key, room.record.keyHash)) return this.fail(client, 'not-allowed', "That is not this room's presenter key.");
    client.role = { kind: 'presenter', room };
    room.presenters.add(client);
    // The whole room first, then what came in meanwhile: counts are taken now, and every event
    // stored from here on is sent live (queued until the snapshot is out).
    const counts = room.seats.map((s) => s.events);
    client.hold();
    try {
      client.sendNow(frame({ t: 'room', room: room.info() }));
      for (let s = 0; s < counts.length; s++) {
        const events = await this.store.readEvents(room.id, s, 0, counts[s]);
        for (const f of eventFrames(s, 0, events)) client.sendNow(f);
      }
    } finally {
      client.release();
    }
  }

  private async join(client: HubClient, id: string, claim: { index: number; token: string } | null): Promise<void> {
    if (client.role.kind !== 'none') return this.fail(client, 'not-allowed', 'This connection already holds a seat or presents a room; open a new connection to join.');
    const room = this.room(id);
    if (!room) return this.fail(client, 'no-such-room', 'There is no such room on this server (it may have expired): ask for a new link.');
    if (room.record.status === 'closed') return this.fail(client, 'room-closed', 'This room is closed: the presenter has ended it.');
    let seat: Seat;
    let token: string;
    if (claim) {
      const held = room.seats[claim.index];
      if (!held || !matchesHash(claim.token, held.tokenHash)) return this.fail(client, 'bad-seat', `This room has no seat ${claim.index} with that token: join again without a seat to take a new one.`);
      seat = held;
      token = claim.token;
      if (seat.conn && seat.conn !== client) {
        // The same student reconnecting (the old connection is stale): the newest wins.
        const old = seat.conn as HubClient;
        old.send(errorFrame('not-allowed', 'This seat was joined again from another connection.'));
        this.disconnected(old);
        old.close(4001, 'seat joined from another connection');
      }
    } else {
      if (room.seats.length >= ROOM_LIMITS.seats) return this.fail(client, 'room-full', `This room is full: it has ${ROOM_LIMITS.seats} seats.`);
      const index = room.seats.length;
      token = newSecret();
      const record: SeatRecord = { index, tokenHash: secretHash(token), seed: room.seedOf(index), member: room.memberOf(index), events: 0, lastStep: 0, done: false };
      seat = { ...record, conn: null, chain: Promise.resolve() };
      room.seats.push(seat);
      await this.store.putSeat(room.id, record);
    }
    seat.conn = client;
    client.role = { kind: 'student', room, seat: seat.index };
    room.students.set(client, { seat: seat.index, sent: [], budget: this.opts.feedBytesPerSecond, refilled: this.opts.now(), turn: 0 });
    room.feedDirty = true;
    client.send(frame({ t: 'seat', seat: room.seatInfo(seat), token, stored: seat.events }));
    client.send(frame({ t: 'room', room: room.info() }));
    const partner = room.partnerOf(seat.index);
    if (partner !== null) {
      for (const x of await this.store.readExchanges(room.id, partner)) client.send(frame({ t: 'exchange', ...(JSON.parse(x) as ExchangeBody) }));
    }
    this.announce(room);
  }

  private async setStatus(client: HubClient, what: 'start' | 'close'): Promise<void> {
    const role = client.role;
    if (role.kind !== 'presenter') return this.fail(client, 'not-allowed', `Only the presenter may ${what} the room.`);
    const room = role.room;
    if (this.room(room.id) !== room) return this.fail(client, 'no-such-room', 'This room has expired.');
    if (room.record.status === 'closed') return this.fail(client, 'room-closed', 'This room is closed already.');
    const status = what === 'start' ? 'running' : 'closed';
    if (room.record.status === status) return;
    room.record = { ...room.record, status };
    await this.store.putRoom(room.record);
    this.announce(room);
  }

  /** The seat a student's message is about, or null (with the reason sent). */
  private ownSeat(client: HubClient, what: string): { room: Room; seat: Seat } | null {
    const role = client.role;
    if (role.kind !== 'student') {
      this.fail(client, 'not-allowed', `Only a seated student sends ${what}: join the room first.`);
      return null;
    }
    const room = role.room;
    if (this.room(room.id) !== room) {
      this.fail(client, 'no-such-room', 'This room has expired.');
      return null;
    }
    if (room.record.status === 'closed') {
      this.fail(client, 'room-closed', 'This room is closed: nothing more is stored.');
      return null;
    }
    return { room, seat: room.seats[role.seat] };
  }

  private event(client: HubClient, seq: number, event: SeatEvent): Promise<void> {
    const own = this.ownSeat(client, 'events');
    if (!own) return Promise.resolve();
    const { room, seat } = own;
    const write = seat.chain.then(() => this.storeEvent(client, room, seat, seq, event));
    seat.chain = write.catch(() => undefined);
    return write;
  }

  private async storeEvent(client: HubClient, room: Room, seat: Seat, seq: number, event: SeatEvent): Promise<void> {
    if (seq < seat.events) return client.send(frame({ t: 'ack', seq }));
    if (seq > seat.events) {
      return this.fail(client, 'out-of-order', `Event ${seq} came before event ${seat.events}: the room holds ${seat.events} of this seat's events; send them from ${seat.events} on.`);
    }
    if (seat.done) return this.fail(client, 'not-allowed', "This seat's run has ended (its last event is stored): nothing more is stored for it.");
    if (seat.conn !== client) return this.fail(client, 'not-allowed', 'This seat was joined again from another connection.');
    const json = JSON.stringify(streamedEvent(event));
    const next: SeatRecord = {
      index: seat.index,
      tokenHash: seat.tokenHash,
      seed: seat.seed,
      member: seat.member,
      events: seat.events + 1,
      lastStep: event.type === 'step' ? event.step : seat.lastStep,
      done: event.type === 'done' || event.type === 'nonfinite',
    };
    await this.store.appendEvent(room.id, next, seq, json);
    seat.events = next.events;
    seat.lastStep = next.lastStep;
    seat.done = next.done;
    client.send(frame({ t: 'ack', seq }));
    const live = eventFrames(seat.index, seq, [json]);
    for (const p of room.presenters) for (const f of live) p.send(f);
    room.feedDirty = true;
    if (seat.done || seq === 0) this.announce(room);
  }

  private async exchange(client: HubClient, msg: Extract<ClientMessage, { t: 'exchange' }>): Promise<void> {
    const own = this.ownSeat(client, 'answers');
    if (!own) return;
    const { room, seat } = own;
    if (!room.record.pairing) return this.fail(client, 'not-allowed', 'This room is not paired: there is no partner to send answers to.');
    const body: ExchangeBody = { step: msg.step, kind: msg.kind, answers: msg.answers };
    await this.store.putExchange(room.id, seat.index, msg.step, msg.kind, JSON.stringify(body));
    const out = frame({ t: 'exchange', ...body });
    const partner = room.partnerOf(seat.index);
    const conn = partner === null ? null : room.seats[partner].conn;
    conn?.send(out);
  }
}
