/**
 * The server's budgets (issue 28): what one source address, one room, one seat and the whole
 * server may use, so that no client, and no few clients, can take the lesson down. Every device
 * on the school's network can reach the server, and so can any web page a student opens, so
 * every budget applies to every address, loopback included (the tests stand for other devices
 * with 127.0.0.2, 127.0.0.3, ...). docs/ROOM.md, "Limits", lists them with the reasons.
 */
export interface ServerLimits {
  /** Open WebSocket connections from one address, and on the whole server (under `ulimit -n`, 1,024 by default). */
  connectionsPerAddress: number;
  connections: number;
  /** Joins (new seats and rejoins) from one address: a bucket of `joinBurst`, refilled `joinsPerMinute` a minute. */
  joinsPerMinute: number;
  joinBurst: number;
  /** Live rooms created from one address (kept with the room, so a restart keeps counting them). */
  roomsPerAddress: number;
  /** Milliseconds of frame checking (JSON and schema) one address may use a second, and saved up at most. */
  checkMsPerSecond: number;
  checkBurstMs: number;
  /** Bytes of frames one address may send a second, and saved up at most. */
  bytesPerSecond: number;
  bytesBurst: number;
  /** Bytes stored (events and exchanges, as JSON) per seat, per room, and on the whole server. */
  seatBytes: number;
  roomBytes: number;
  diskBytes: number;
  /** A connection must create, present or join within this many ms. */
  handshakeMs: number;
  /** Bytes queued on a socket: above `backlogBytes` for `stallMs`, or above `backlogHardBytes` at all, and it is dropped. */
  backlogBytes: number;
  backlogHardBytes: number;
  stallMs: number;
  /** Replays (a room to its presenter, a partner's exchanges to a seat) are sent a page at a time once the socket has drained below this. */
  drainedBytes: number;
  /** Characters of received frames waiting to be handled on one connection. */
  pendingChars: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  connectionsPerAddress: 32,
  connections: 900,
  joinsPerMinute: 30,
  joinBurst: 30,
  roomsPerAddress: 5,
  checkMsPerSecond: 50,
  checkBurstMs: 200,
  bytesPerSecond: 2 * MiB,
  bytesBurst: 8 * MiB,
  seatBytes: 64 * MiB,
  roomBytes: 512 * MiB,
  diskBytes: 4096 * MiB,
  handshakeMs: 10_000,
  backlogBytes: 4 * MiB,
  backlogHardBytes: 16 * MiB,
  stallMs: 10_000,
  drainedBytes: 256 * 1024,
  pendingChars: 16 * MiB,
};

/** A bucket of `burst` units refilled at `perSecond`; `charge` may take it below zero (a cost known only afterwards). */
export class Bucket {
  private level: number;
  private last: number;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    now: number,
  ) {
    this.level = burst;
    this.last = now;
  }

  private refill(now: number): void {
    this.level = Math.min(this.burst, this.level + (Math.max(0, now - this.last) / 1000) * this.perSecond);
    this.last = now;
  }

  /** Whether anything is left at `now`. */
  has(now: number): boolean {
    this.refill(now);
    return this.level > 0;
  }

  /** 0 if anything is left at `now`, else the ms until something is. */
  waitMs(now: number): number {
    this.refill(now);
    return this.level > 0 ? 0 : Math.ceil(((-this.level + 1e-9) / this.perSecond) * 1000);
  }

  /** Take one unit if one is left. */
  take(now: number): boolean {
    this.refill(now);
    if (this.level < 1) return false;
    this.level -= 1;
    return true;
  }

  charge(now: number, units: number): void {
    this.refill(now);
    this.level -= units;
  }
}

/** One source address's connections, joins, checking time and bytes in. */
interface AddressUse {
  connections: number;
  joins: Bucket;
  checking: Bucket;
  bytes: Bucket;
}

export class AddressBudgets {
  private readonly byAddress = new Map<string, AddressUse>();
  private total = 0;

  constructor(
    readonly limits: ServerLimits,
    private readonly now: () => number,
  ) {}

  private use(address: string): AddressUse {
    let u = this.byAddress.get(address);
    if (!u) {
      const t = this.now();
      u = {
        connections: 0,
        joins: new Bucket(this.limits.joinsPerMinute / 60, this.limits.joinBurst, t),
        checking: new Bucket(this.limits.checkMsPerSecond, this.limits.checkBurstMs, t),
        bytes: new Bucket(this.limits.bytesPerSecond, this.limits.bytesBurst, t),
      };
      this.byAddress.set(address, u);
    }
    return u;
  }

  /** A new connection from `address`: null if allowed (and counted), else why not. */
  connect(address: string): string | null {
    if (this.total >= this.limits.connections) return `this server has its maximum of ${this.limits.connections} connections open`;
    const u = this.use(address);
    if (u.connections >= this.limits.connectionsPerAddress) return `at most ${this.limits.connectionsPerAddress} connections from one address`;
    u.connections++;
    this.total++;
    return null;
  }

  disconnect(address: string): void {
    const u = this.byAddress.get(address);
    if (!u) return;
    u.connections--;
    this.total--;
    // An address with nothing open and full buckets is forgotten (an idle one refills to full within a minute).
    if (u.connections <= 0) setTimeout(() => this.byAddress.get(address)?.connections === 0 && this.byAddress.delete(address), 60_000).unref?.();
  }

  /** A join from `address`: whether its budget allows one now. */
  join(address: string): boolean {
    return this.use(address).joins.take(this.now());
  }

  /**
   * A frame of `bytes` from `address`: 0 if its checking time and bytes allow it now (the bytes
   * are charged), else how many ms until they will (the frame is then not to be read).
   */
  mayReceive(address: string, bytes: number): number {
    const u = this.use(address);
    const now = this.now();
    const wait = Math.max(u.checking.waitMs(now), u.bytes.waitMs(now));
    if (wait === 0) u.bytes.charge(now, bytes);
    return wait;
  }

  /** Charge the ms a frame from `address` took to check. */
  checked(address: string, ms: number): void {
    this.use(address).checking.charge(this.now(), ms);
  }

  connections(): number {
    return this.total;
  }
}
