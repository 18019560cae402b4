/**
 * What a seated student writes: its events (numbered, up to the spec's steps, each stored with the
 * seat's new count in one batch before its `ack`) and, paired, its answers (steps within the spec,
 * each step and kind stored once and never rewritten, relayed to the partner). Each seat's writes
 * go one after the other (`seat.chain`), and each is checked against the seat's, the room's and
 * the server's byte budgets first (`over-quota`; the presenters are told of a full disk). A write
 * still queued when the expiry sweep begins deleting the room is refused (`no-such-room`).
 */
import type { ClientMessage, RoomErrorCode, SeatEvent } from '../src/room/protocol';
import { answersProblem, eventProblem, seatLevelProblem } from '../src/room/eventRules';
import { streamedEvent } from '../src/room/protocol';
import { diskBound, type DiskUse } from './diskUse';
import { errorFrame, eventFrames, frame } from './frames';
import type { ExchangeBody, HubClient, HubOptions } from './hubTypes';
import { ROOM_EXPIRED } from './lifecycle';
import { recordOf, type Room, type Seat } from './roomState';
import { eventKey, exchangeKey, seatKey, type RoomStore, type SeatRecord } from './store';

/** What the writes need of the hub. */
export interface WritesHub {
  ownSeat(client: HubClient, what: string): { room: Room; seat: Seat } | null;
  announce(room: Room): void;
  refuse(client: HubClient, code: RoomErrorCode, message: string): void;
}

export class SeatWrites {
  /** When each room's presenters were last told the server is over its disk quota. */
  private quotaNoted = new Map<string, number>();

  constructor(
    private readonly store: RoomStore,
    private readonly opts: HubOptions,
    /** Bytes counted over every room and per address, shared with the hub. */
    private readonly disk: DiskUse,
    private readonly hub: WritesHub,
  ) {}

  private fail(client: HubClient, code: RoomErrorCode, message: string): void {
    client.send(errorFrame(code, message));
  }

  /** Null if `bytes` more may be stored for the seat, else the over-quota sentence (the presenters are told of a full disk). */
  private overBudget(room: Room, seat: Seat, bytes: number): string | null {
    const l = this.opts.limits;
    const mib = (n: number) => `${Math.round(n / 2 ** 20)} MiB`;
    if ((seat.bytes ?? 0) + bytes > l.seatBytes) return `A seat stores at most ${mib(l.seatBytes)}.`;
    if (room.bytes() + bytes > l.roomBytes) return `A room stores at most ${mib(l.roomBytes)}.`;
    const perAddress = addressBudget(l);
    if (this.disk.of(room.addressOf(seat)) + bytes > perAddress) return `The seats of one address (this device's) store at most ${mib(perAddress)} on this server.`;
    if (this.disk.bytes + bytes > l.diskBytes) {
      const now = this.opts.now();
      if (now - (this.quotaNoted.get(room.id) ?? -Infinity) > 60_000) {
        this.quotaNoted.set(room.id, now);
        const f = errorFrame('over-quota', `The room server has used its disk quota (${mib(l.diskBytes)}): nothing more is stored until its operator raises it or deletes rooms.`);
        for (const p of room.presenters) p.send(f);
      }
      return `This server has used its disk quota (${mib(l.diskBytes)}).`;
    }
    return null;
  }

  /**
   * Run a write with its bytes counted while it is in flight: the seats of one address (or room)
   * write side by side, and counting each only after its write let four seats pass the same check
   * at once and overshoot the budget. A write that fails is counted out again.
   */
  private async reserved(room: Room, seat: Seat, cost: number, write: () => Promise<void>): Promise<void> {
    const address = room.addressOf(seat);
    seat.bytes = (seat.bytes ?? 0) + cost;
    this.disk.add(address, cost);
    try {
      await write();
    } catch (e) {
      seat.bytes -= cost;
      this.disk.add(address, -cost);
      throw e;
    }
  }

  event(client: HubClient, seq: number, event: SeatEvent): Promise<void> {
    const own = this.hub.ownSeat(client, 'events');
    if (!own) return Promise.resolve();
    const { room, seat } = own;
    const write = seat.chain.then(() => this.storeEvent(client, room, seat, seq, event));
    seat.chain = write.catch(() => undefined);
    return write;
  }

  private async storeEvent(client: HubClient, room: Room, seat: Seat, seq: number, event: SeatEvent): Promise<void> {
    if (room.deleting) return this.fail(client, 'no-such-room', ROOM_EXPIRED);
    if (seat.freeing) return this.fail(client, 'seat-removed', 'This seat was freed: nothing more is stored for it.');
    if (seq < seat.events) return client.send(frame({ t: 'ack', seq }));
    if (seq > seat.events) {
      return this.fail(client, 'out-of-order', `Event ${seq} came before event ${seat.events}: the room holds ${seat.events} of this seat's events; send them from ${seat.events} on.`);
    }
    if (seat.done) return this.fail(client, 'not-allowed', "This seat's run has ended (its last event is stored): nothing more is stored for it.");
    if (seat.conn !== client) return this.fail(client, 'not-allowed', 'This seat was joined again from another connection.');
    // A run of the room's experiment makes a base, one step event per RL step and a done.
    const steps = room.record.spec.steps;
    if (seq > steps + 1) return this.fail(client, 'not-allowed', `This room's experiment has ${steps} steps: a seat has at most ${steps + 2} events (base, steps, done).`);
    if ((event.type === 'step' || event.type === 'nonfinite') && event.step > steps) {
      return this.fail(client, 'not-allowed', `This room's experiment has ${steps} steps: this event is of step ${event.step}.`);
    }
    // The event's science against the seat's own experiment (the room's, or in a paired room its
    // level's arm alone, with its own member): order, arms and members, rates, seed, text.
    const own = room.ownMembers(seat);
    // A 'done' is checked against the room's experiment: a member part's summary has all its arms (seatLevelProblem).
    const spec = event.type === 'done' ? room.record.spec : room.seatSpec(seat);
    const problem = (seat.level && own ? seatLevelProblem({ arm: seat.level, members: own }, event) : null) ?? eventProblem(spec, seat, seq, event);
    if (problem) {
      this.hub.refuse(client, 'not-allowed', `Event ${seq} was not stored: ${problem}`);
      const told = errorFrame('not-allowed', `Seat ${seat.index}'s event ${seq} was refused and not shown: ${problem}`);
      for (const p of room.presenters) p.send(told);
      return;
    }
    const json = JSON.stringify(streamedEvent(event));
    const next: SeatRecord = {
      ...recordOf(seat),
      events: seat.events + 1,
      lastStep: event.type === 'step' ? event.step : seat.lastStep,
      done: event.type === 'done' || event.type === 'nonfinite',
    };
    const cost = writeCost(room.id, next, eventKey(room.id, seat.index, seq), json);
    const over = this.overBudget(room, seat, cost);
    if (over) return this.hub.refuse(client, 'over-quota', `${over} Event ${seq} was not stored.`);
    next.bytes = (seat.bytes ?? 0) + cost;
    await this.reserved(room, seat, cost, () => this.store.appendEvent(room.id, next, seq, json));
    seat.events = next.events;
    seat.lastStep = next.lastStep;
    seat.done = next.done;
    client.send(frame({ t: 'ack', seq }));
    const live = eventFrames(seat.index, seq, [json]);
    for (const p of room.presenters) for (const f of live) p.send(f);
    room.feedDirty = true;
    if (seat.done || seq === 0) this.hub.announce(room);
  }

  exchange(client: HubClient, msg: Extract<ClientMessage, { t: 'exchange' }>): Promise<void> {
    const own = this.hub.ownSeat(client, 'answers');
    if (!own) return Promise.resolve();
    const { room, seat } = own;
    if (!room.record.pairing) return Promise.resolve(this.fail(client, 'not-allowed', 'This room is not paired: there is no partner to send answers to.'));
    if (seat.alone) return Promise.resolve(this.fail(client, 'not-allowed', 'This seat trains both members of its pair itself: there is no partner to send answers to.'));
    const steps = room.record.spec.steps;
    if (msg.step > steps) return Promise.resolve(this.fail(client, 'not-allowed', `This room's experiment has ${steps} steps: there are no answers of step ${msg.step}.`));
    const shape = answersProblem(room.record.spec, msg.step, msg.kind, msg.answers);
    if (shape) return Promise.resolve(this.hub.refuse(client, 'not-allowed', `These answers were not stored: ${shape}`));
    const write = seat.chain.then(() => this.storeExchange(client, room, seat, msg));
    seat.chain = write.catch(() => undefined);
    return write;
  }

  private async storeExchange(client: HubClient, room: Room, seat: Seat, msg: Extract<ClientMessage, { t: 'exchange' }>): Promise<void> {
    if (room.deleting) return this.fail(client, 'no-such-room', ROOM_EXPIRED);
    if (seat.freeing || seat.conn !== client) return;
    // Once stored, a step's answers are the pair's for good: a resend changes nothing (nor can a rewrite).
    if (await this.store.hasExchange(room.id, seat.index, msg.step, msg.kind)) return;
    const body: ExchangeBody = { step: msg.step, kind: msg.kind, answers: msg.answers };
    const json = JSON.stringify(body);
    const next = recordOf(seat);
    const cost = writeCost(room.id, next, exchangeKey(room.id, seat.index, msg.step, msg.kind), json);
    const over = this.overBudget(room, seat, cost);
    if (over) return this.hub.refuse(client, 'over-quota', `${over} These answers were not stored.`);
    next.bytes = (seat.bytes ?? 0) + cost;
    await this.reserved(room, seat, cost, () => this.store.putExchange(room.id, next, msg.step, msg.kind, json));
    const partner = room.partnerOf(seat.index);
    const conn = partner === null ? null : (room.seats[partner]?.conn ?? null);
    conn?.send(frame({ t: 'exchange', ...body }));
  }
}

/** What one address's seats may store: addressBytes, and never more than a quarter of the server's quota. */
export function addressBudget(l: { addressBytes: number; diskBytes: number }): number {
  return Math.min(l.addressBytes, Math.floor(l.diskBytes / 4));
}

/**
 * The bytes a write counts (diskUse.ts): its record and the seat's record written beside it (its
 * `bytes` field, not known yet, is counted at its widest).
 */
function writeCost(room: string, seat: SeatRecord, key: string, json: string): number {
  return diskBound(key, json) + diskBound(seatKey(room, seat.index), JSON.stringify({ ...seat, bytes: Number.MAX_SAFE_INTEGER }));
}
