/**
 * The server's budgets: what one source address, one room, one seat and the whole
 * server may use, so that no client, and no few clients, can take the lesson down. Every device
 * on the school's network can reach the server, and so can any web page a student opens, so
 * every budget applies to every address, loopback included (the tests stand for other devices
 * with 127.0.0.2, 127.0.0.3, ...). docs/ROOM.md, "Limits", lists them with the reasons.
 */
export interface ServerLimits {
  /** Open WebSocket connections from one address, and on the whole server (under `ulimit -n`, 1,024 by default). */
  connectionsPerAddress: number;
  connections: number;
  /**
   * TCP sockets from one address and on the whole server, counted when the socket is accepted,
   * before it has sent a byte (a socket that never upgrades holds a file handle as surely as a
   * WebSocket does). An excess socket is closed at once. Behind --proxied the proxy's own sockets
   * count only towards `sockets`. At least connectionsPerAddress + 16 from one address (a page's
   * own HTTP requests beside its room connections), whatever is given.
   */
  socketsPerAddress: number;
  sockets: number;
  /** A socket must send a whole HTTP request (a page's file or the WebSocket upgrade) within this many ms of being accepted. */
  upgradeMs: number;
  /**
   * A message begun (its first bytes received) must be complete within this many ms, and may come
   * in at most `messageFragments` frames; otherwise the connection is cut. The page sends each
   * message in one frame.
   */
  messageMs: number;
  messageFragments: number;
  /** Joins (new seats and rejoins) from one address: a bucket of `joinBurst`, refilled `joinsPerMinute` a minute. */
  joinsPerMinute: number;
  joinBurst: number;
  /** Live rooms created from one address (kept with the room, so a restart keeps counting them). */
  roomsPerAddress: number;
  /** Milliseconds of frame checking (JSON and schema) one address may use a second, and saved up at most. */
  checkMsPerSecond: number;
  checkBurstMs: number;
  /**
   * A `create` carrying a task of its own is checked in a worker thread (taskChecks.ts): one check
   * may take taskCheckMs at most (then it is stopped and the create refused); one address may have
   * taskChecksPerAddress checks waiting or running, and taskCheckMsPerMinute of checking a minute
   * (saved up to as much), beyond which its creates are refused at once.
   */
  taskCheckMs: number;
  taskChecksPerAddress: number;
  taskCheckMsPerMinute: number;
  /** Checks waiting or running on the whole server (each holds its frame in memory). */
  taskChecksWaiting: number;
  /** Bytes of frames one address may send a second, and saved up at most. */
  bytesPerSecond: number;
  bytesBurst: number;
  /**
   * Bytes stored per seat, per room, per address (a seat's bytes count towards the address that
   * took it), and on the whole server. A record counts as the UTF-8 bytes of its key and value
   * plus RECORD_OVERHEAD_BYTES: an upper bound of what LevelDB keeps of it at rest (store.ts,
   * `diskBound`).
   */
  seatBytes: number;
  roomBytes: number;
  addressBytes: number;
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
  /**
   * Log lines about one address in a window of logWindowMs, and about all addresses together;
   * more are counted, not printed, and the count is printed when the window ends (logLimit.ts).
   */
  logLinesPerAddress: number;
  logLines: number;
  logWindowMs: number;
}

const MiB = 1024 * 1024;

export const DEFAULT_LIMITS: ServerLimits = {
  connectionsPerAddress: 32,
  connections: 900,
  socketsPerAddress: 48,
  sockets: 940,
  upgradeMs: 10_000,
  messageMs: 15_000,
  messageFragments: 64,
  joinsPerMinute: 30,
  joinBurst: 30,
  roomsPerAddress: 5,
  checkMsPerSecond: 50,
  checkBurstMs: 200,
  taskCheckMs: 10_000,
  taskChecksPerAddress: 2,
  taskCheckMsPerMinute: 30_000,
  taskChecksWaiting: 32,
  bytesPerSecond: 2 * MiB,
  bytesBurst: 8 * MiB,
  seatBytes: 64 * MiB,
  roomBytes: 512 * MiB,
  addressBytes: 256 * MiB,
  diskBytes: 4096 * MiB,
  handshakeMs: 10_000,
  backlogBytes: 4 * MiB,
  backlogHardBytes: 16 * MiB,
  stallMs: 10_000,
  drainedBytes: 256 * 1024,
  pendingChars: 16 * MiB,
  logLinesPerAddress: 10,
  logLines: 100,
  logWindowMs: 10_000,
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
  /** TCP sockets open (counted at accept). */
  sockets: number;
  joins: Bucket;
  checking: Bucket;
  /** Milliseconds of task checking (taskChecks.ts). */
  tasks: Bucket;
  bytes: Bucket;
}

export class AddressBudgets {
  private readonly byAddress = new Map<string, AddressUse>();
  private total = 0;
  private totalSockets = 0;

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
        sockets: 0,
        joins: new Bucket(this.limits.joinsPerMinute / 60, this.limits.joinBurst, t),
        checking: new Bucket(this.limits.checkMsPerSecond, this.limits.checkBurstMs, t),
        tasks: new Bucket(this.limits.taskCheckMsPerMinute / 60, this.limits.taskCheckMsPerMinute, t),
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
    this.forgetLater(address, u);
  }

  /** An address with nothing open is forgotten a minute later (its buckets have refilled to full by then). */
  private forgetLater(address: string, u: AddressUse): void {
    if (u.connections > 0 || u.sockets > 0) return;
    setTimeout(() => {
      const now = this.byAddress.get(address);
      if (now && now.connections === 0 && now.sockets === 0) this.byAddress.delete(address);
    }, 60_000).unref?.();
  }

  /** The most TCP sockets one address may hold (never fewer than its WebSockets and a page's loads need). */
  get socketsPerAddress(): number {
    return Math.max(this.limits.socketsPerAddress, this.limits.connectionsPerAddress + 16);
  }

  /**
   * A TCP socket accepted from `address` (null: counted only server-wide, a local proxy's own
   * socket): null if it may stay (and is counted), else why not.
   */
  accept(address: string | null): string | null {
    if (this.totalSockets >= this.limits.sockets) return `this server has its maximum of ${this.limits.sockets} sockets open`;
    if (address !== null) {
      const u = this.use(address);
      if (u.sockets >= this.socketsPerAddress) return `at most ${this.socketsPerAddress} sockets from one address`;
      u.sockets++;
    }
    this.totalSockets++;
    return null;
  }

  /** A socket counted by accept() has closed. */
  release(address: string | null): void {
    this.totalSockets--;
    if (address === null) return;
    const u = this.byAddress.get(address);
    if (!u) return;
    u.sockets--;
    this.forgetLater(address, u);
  }

  sockets(): number {
    return this.totalSockets;
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

  /** 0 if `address` may have a task checked now, else the ms until it may. */
  taskCheckWait(address: string): number {
    return this.use(address).tasks.waitMs(this.now());
  }

  /** Charge the ms a task of `address` took to check. */
  checkedTask(address: string, ms: number): void {
    this.use(address).tasks.charge(this.now(), ms);
  }

  connections(): number {
    return this.total;
  }
}
