/**
 * Class mode's wire protocol: what a presenter's page, a student's page and the room server
 * (`npm run room`, server/) say to each other over one WebSocket each. Plain JSON, one message per
 * frame, every frame validated by these schemas on both ends (the other end is untrusted: a
 * student's page may be anyone's, and a join link may name anyone's server).
 *
 * A room is one experiment run by a class:
 *   - the presenter creates it (`create`) and gets its id and a secret key (`created`); only a
 *     connection that presents the key (`present`) may start or close the room;
 *   - a student joins with the id (`join`) and gets a seat (`seat`): an index in join order, the
 *     seed the room assigns it (the next of its preset's room seeds, src/core/experiment/roomSeeds.ts,
 *     whose warm starts ship with the site; past the list's end, or in a room made without one,
 *     baseSeed + index; in paired rooms one seed per pair),
 *     and a seat token, its secret, with which it rejoins the same seat later;
 *   - a seated student streams its run's recorded events (`event`, numbered from 0 in the order
 *     the run made them, rollout samples left out); the server stores each once, acknowledges
 *     (`ack`) and forwards them (`events`) to the presenter, and to students at most once a second;
 *   - in a paired room (pairing: true), seats 2k and 2k+1 train the two members of the spec's peer
 *     arm (`member` in their seat) and exchange each step's answers through the room (`exchange`,
 *     keyed by step and kind; the server relays it to the partner and keeps it until the partner
 *     has it, so a partner who reconnects gets it again);
 *   - in an unpaired room of an experiment with several partner levels (the overlap preset),
 *     seat k trains level k mod L's pair alone (`level`, `alone`), src/room/levels.ts.
 *
 * Limits (ROOM_LIMITS) bound every array and string; the server also limits message size and rate.
 * Nothing here touches the DOM or Node: the page and the server share it.
 */
import { z } from '../core/zod';
import type { RunSummary } from '../core/experiment/events';
import { type ExperimentSpec, ExperimentSpecSchema } from '../core/experiment/spec';
import { emptySummary, foldEvent } from '../core/experiment/summary';
import type { RecordedEvent } from '../share/record';
import { RecordedEventSchema } from '../share/runEventsSchema';
import { TASK_LIMITS } from '../core/tasks/custom/definition';

export const ROOM_PROTOCOL_VERSION = 1;

export const ROOM_LIMITS = {
  /** Largest frame either side accepts, in characters of JSON. */
  frameChars: 256 * 1024,
  /** Seats in one room. */
  seats: 200,
  /** Events of one seat: a base, one step per RL step, and a done (runEventsSchema's MAX_EVENTS). */
  eventsPerSeat: 5002,
  /** Prompts in one exchange (a training batch's B, or the held-out set), and answers per prompt. */
  exchangePrompts: 1024,
  exchangeAnswers: 64,
  /** Characters of one answer in an exchange. */
  answerChars: 64,
  /** Characters of a room's name. */
  nameChars: 120,
  /** Messages a connection may send per second, and the burst it may save up. */
  messagesPerSecond: 100,
  messageBurst: 400,
} as const;

const L = ROOM_LIMITS;

/** Seconds a paired seat waits for a partner before it trains alone, unless the server is started with another (`--partner-wait-s`). */
export const DEFAULT_PARTNER_WAIT_S = 20;

/** 128 random bits, base64url: room ids, presenter keys and seat tokens are all this shape. */
export const SecretSchema = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'a 22-character base64url id');
export type Secret = z.infer<typeof SecretSchema>;

const seatIndex = z.number().int().min(0).max(L.seats - 1);
const seq = z.number().int().min(0).max(L.eventsPerSeat - 1);
const seed = z.number().int().min(0).max(2 ** 31 - 1);
const step = z.number().int().min(0).max(5000);

/** An event as a seat streams it: a recorded event with no rollout samples (the room has no inspector). */
export const SeatEventSchema = RecordedEventSchema.refine((e) => e.type !== 'step' || e.samples.length === 0, 'a streamed step carries no rollout samples');
export type SeatEvent = z.infer<typeof SeatEventSchema>;

/**
 * A 'done' event as a seat streams it: its summary with the per-step histories left empty (each
 * member's `history`, each arm's `pairs` and `ensemble`). They repeat the step events already
 * streamed, and with them a run's 'done' outgrows a frame: about 480,000 characters for
 * peers-learn's 120 steps, against frameChars 262,144. Whoever needs the histories refolds the
 * seat's step events (foldEvent, src/core/experiment/summary.ts). Other events are returned as
 * they are. The room server stores every 'done' this way.
 */
export function streamedEvent(e: SeatEvent): SeatEvent {
  if (e.type !== 'done') return e;
  const arms = e.summary.arms.map((a) => ({ ...a, members: a.members.map((m) => ({ ...m, history: [] })), pairs: [], ensemble: [] }));
  return { ...e, summary: { ...e.summary, arms } };
}

/**
 * A seat's run as the room holds it (its 'done' streamed: streamedEvent) with the 'done' made
 * whole again: each member's `history` and each arm's `pairs` and `ensemble` refolded from the
 * seat's events before it (foldEvent over `spec`, the seat's experiment, as the runner folds
 * them), everything else of the summary as the seat sent it. A history that is not empty (a
 * 'done' that was not streamed) is kept. The other events are returned as they are.
 */
export function restoreStreamed<E extends RecordedEvent>(spec: ExperimentSpec, events: readonly E[]): E[] {
  const at = events.findIndex((e) => e.type === 'done');
  const done = events[at];
  if (!done || done.type !== 'done') return [...events];
  const folded = emptySummary(spec, done.summary.backend);
  for (const e of events.slice(0, at)) foldEvent(folded, e, spec);
  return [...events.slice(0, at), wholeDone(done, folded) as E, ...events.slice(at + 1)];
}

/**
 * A streamed 'done' made whole from `folded`, the summary folded from the seat's events before it
 * (restoreStreamed folds them itself; a page that keeps a seat's fold as its events come hands it
 * its own): each member's `history` and each arm's `pairs` and `ensemble` taken from `folded` where
 * the 'done' has them empty, everything else as the seat sent it. The arrays are `folded`'s own.
 */
export function wholeDone<D extends Extract<RecordedEvent, { type: 'done' }>>(done: D, folded: RunSummary): D {
  const arms = done.summary.arms.map((a) => {
    const f = folded.arms.find((x) => x.id === a.id);
    return {
      ...a,
      members: a.members.map((m) => ({ ...m, history: m.history.length > 0 ? m.history : (f?.members.find((x) => x.id === m.id)?.history ?? []) })),
      pairs: a.pairs.length > 0 ? a.pairs : (f?.pairs ?? []),
      ensemble: a.ensemble.length > 0 ? a.ensemble : (f?.ensemble ?? []),
    };
  });
  return { ...done, summary: { ...done.summary, arms } };
}

export const ROOM_STATUSES = ['open', 'running', 'closed'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];

/** What everyone in a room sees of a seat. */
export const SeatInfoSchema = z.object({
  index: seatIndex,
  seed,
  /** Paired rooms: the peer arm's member this seat trains, and its partner's seat (null: not yet taken). */
  member: z.string().max(24).nullable(),
  partner: seatIndex.nullable(),
  /**
   * The peer arm (the partner level, src/room/levels.ts) this seat's pair trains, or in an
   * unpaired room of several levels the seat itself; null in an unpaired room without levels (each
   * seat trains the whole experiment). Absent from a server older than levels (its pairs all
   * train the spec's first two-member peer arm).
   */
  level: z.string().max(24).nullable().optional(),
  /**
   * The seat trains both members of its level itself: in a paired room when it had no partner at
   * the start, or took a seat whose partner trains alone (its run counts as its pair's); in an
   * unpaired room of levels, every seat.
   */
  alone: z.boolean().optional(),
  connected: z.boolean(),
  /** Events stored for the seat, and the last RL step among them (0: none yet). */
  events: z.number().int().min(0).max(L.eventsPerSeat),
  lastStep: step,
  done: z.boolean(),
});
export type SeatInfo = z.infer<typeof SeatInfoSchema>;

export const RoomInfoSchema = z.object({
  id: SecretSchema,
  name: z.string().max(L.nameChars),
  /** The preset the experiment came from (null: an edited or custom experiment). */
  preset: z.string().max(40).nullable(),
  spec: ExperimentSpecSchema,
  baseSeed: seed,
  pairing: z.boolean(),
  status: z.enum(ROOM_STATUSES),
  /** The presenter locked the room: no new seats (a seat's own student may still rejoin it). */
  locked: z.boolean(),
  /** Milliseconds since the epoch: when the room and everything in it is deleted. */
  expiresAt: z.number().int().min(0),
  seats: z.array(SeatInfoSchema).max(L.seats),
  /**
   * The seeds the room hands out from its preset's room seed list (roomSeeds.ts), one per seat
   * (paired: per pair) in join order, and where in the list they start; the seats past them get
   * baseSeed + index. Absent in rooms made without a list (those give every seat baseSeed + index).
   */
  seeds: z.array(seed).max(L.seats).optional(),
  seedOffset: z.number().int().min(0).max(10_000).optional(),
  /**
   * Paired rooms: seconds a seat waits for a partner before it trains alone (the server's
   * `--partner-wait-s`), so that a student's page says the wait this room has. Absent from an
   * older server.
   */
  partnerWaitS: z.number().int().min(0).max(86_400).optional(),
});
export type RoomInfo = z.infer<typeof RoomInfoSchema>;

const answers = z.array(z.array(z.string().max(L.answerChars).nullable()).max(L.exchangeAnswers)).max(L.exchangePrompts);

/** Client to server. */
export const ClientMessageSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('create'),
    v: z.literal(ROOM_PROTOCOL_VERSION),
    name: z.string().min(1).max(L.nameChars),
    preset: z.string().max(40).nullable(),
    spec: ExperimentSpecSchema,
    baseSeed: seed,
    pairing: z.boolean(),
    /**
     * Seats take the preset's room seeds (roomSeeds.ts) from this position of its list on; absent
     * (a page from before the lists), or past the list's end: baseSeed + index for every seat.
     */
    seedOffset: z.number().int().min(0).max(10_000).optional(),
  }),
  z.object({ t: z.literal('present'), v: z.literal(ROOM_PROTOCOL_VERSION), room: SecretSchema, key: SecretSchema }),
  /** A new seat (no seat), or the seat this token holds. */
  z.object({
    t: z.literal('join'),
    v: z.literal(ROOM_PROTOCOL_VERSION),
    room: SecretSchema,
    seat: z.object({ index: seatIndex, token: SecretSchema }).nullable(),
    /**
     * Rejoining a seat that another connection holds: false (or absent) is refused with
     * `seat-in-use` ("this seat is open in another tab"); true takes the seat over (the student
     * chose this tab), and the old connection is closed with 4001.
     */
    takeover: z.boolean().optional(),
  }),
  /** Presenter only. */
  z.object({ t: z.literal('start') }),
  z.object({ t: z.literal('close') }),
  /** Presenter only: no new seats while locked (rejoining one's own seat still works). */
  z.object({ t: z.literal('lock'), locked: z.boolean() }),
  /** Presenter only: remove a seat; its student is disconnected (`seat-removed`) and the seat is freed for the next join. */
  z.object({ t: z.literal('remove-seat'), seat: seatIndex }),
  /** Seated students only: the seat's event number seq (0, 1, 2, ... with no gap). */
  z.object({ t: z.literal('event'), seq, event: SeatEventSchema }),
  /** Paired seats only: this seat's answers at a step, per prompt. */
  z.object({ t: z.literal('exchange'), step, kind: z.enum(['train', 'eval']), answers }),
  z.object({ t: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof ClientMessageSchema>;

export const ROOM_ERROR_CODES = [
  'bad-message',
  'too-large',
  'rate-limited',
  'no-such-room',
  'room-closed',
  'room-full',
  'not-allowed',
  'bad-seat',
  'out-of-order',
  'version',
  /** A rejoin of a seat another connection (another tab) holds, without takeover. */
  'seat-in-use',
  /** The presenter locked the room to new joins. */
  'room-locked',
  /** The presenter removed this seat. */
  'seat-removed',
  /** A budget of this address, room, seat or server is spent (connections, rooms, joins, bytes, disk). */
  'over-quota',
  /** The connection did not create, present or join in time, or could not keep up with what it was sent. */
  'timeout',
  /**
   * The server failed to store or handle the message (its store, not the sender: a full disk is
   * `over-quota`). Nothing of it was kept and the connection is closed (1011); not a refusal: the
   * page connects again with its backoff and sends it again.
   */
  'server-error',
] as const;
export type RoomErrorCode = (typeof ROOM_ERROR_CODES)[number];

/** Server to client. */
export const ServerMessageSchema = z.discriminatedUnion('t', [
  z.object({ t: z.literal('created'), room: SecretSchema, key: SecretSchema }),
  /** The room as it is now: sent on present/join and whenever a seat or the status changes. */
  z.object({ t: z.literal('room'), room: RoomInfoSchema }),
  /** To a student who joined: its seat, its token, and how many of its events the room holds (resume from there). */
  z.object({ t: z.literal('seat'), seat: SeatInfoSchema, token: SecretSchema, stored: z.number().int().min(0).max(L.eventsPerSeat) }),
  z.object({ t: z.literal('ack'), seq }),
  /**
   * To a paired student whose partner's seat was freed after the start and not taken again within
   * the partner wait: its seat now trains both members of its level itself (`seat.alone`), and the
   * room holds none of its events or answers any more: its run starts again from the beginning.
   */
  z.object({ t: z.literal('alone'), seat: SeatInfoSchema }),
  /** A seat's events from `from` on (to the presenter as they come; to students batched). */
  z.object({ t: z.literal('events'), seat: seatIndex, from: seq, events: z.array(SeatEventSchema).max(L.eventsPerSeat) }),
  /** The partner's answers at a step (paired rooms). */
  z.object({ t: z.literal('exchange'), step, kind: z.enum(['train', 'eval']), answers }),
  z.object({ t: z.literal('error'), code: z.enum(ROOM_ERROR_CODES), message: z.string().max(500) }),
  z.object({ t: z.literal('pong') }),
  /**
   * To a presenter (after `created` and `present`): the origins at which other devices on the
   * network reach this server (`http://<LAN IPv4>:<port>`, the first the likeliest), so a page
   * opened on localhost can still put a reachable address in the join link and its QR.
   */
  z.object({ t: z.literal('addresses'), origins: z.array(z.string().max(100)).max(16) }),
]);
export type ServerMessage = z.infer<typeof ServerMessageSchema>;

export type ParsedMessage<M> = { ok: true; message: M } | { ok: false; code: 'bad-message' | 'too-large'; message: string };

/**
 * Bounds on a client frame's JSON checked before the schema, by `t`: nesting depth, keys of one
 * object, items of one array, and values in all. The schema's own cost grows with what it is
 * given and, for a frame that breaks its rules, with how many places break them (zod collects an
 * issue for each, and 20,000 bad keys in one record overflowed the stack): a 57 KB event with
 * 5,000 wrong members took 130-350 ms to refuse. Within these bounds the worst frame costs a few
 * milliseconds (server/attack/, "costly frames"). The bounds are far above what the lab sends: over
 * every preset, a create is at most 112 values, a streamed event 244, depth 9, 27 keys an object.
 * An exchange's answers are checked for their shape (arrays of strings or nulls) by hand first,
 * stopping at the first wrong one.
 */
export const FRAME_SHAPE = {
  depth: 12,
  keys: 64,
  items: L.exchangePrompts,
  values: { create: 2048, event: 4096, exchange: 40_000, other: 16 } as Record<string, number>,
  /**
   * A `create` carrying a task of its own (carriesOwnTask): a data task's rows, TASK_LIMITS.rows
   * of them of at most 4 values each, besides the create's own. Such a create's schema and task
   * check run off the server's event loop (server/taskChecks.ts); what its JSON and this walk cost
   * there: docs/ROOM.md, "Limits".
   */
  ownTask: { items: TASK_LIMITS.rows, values: 2048 + 4 * TASK_LIMITS.rows },
} as const;

/** Whether a frame's document (its JSON read) is a `create` carrying a task of its own: own keys only. */
export function carriesOwnTask(doc: unknown): boolean {
  const own = (o: unknown, key: string): unknown => (typeof o === 'object' && o !== null && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined);
  return own(doc, 't') === 'create' && own(own(own(doc, 'spec'), 'task'), 'definition') !== undefined;
}

/** The shape problem of a key named __proto__ (refused as bad-message, not too-large). */
const PROTO_KEY = 'no key of a message may be named __proto__';

/** Null if `doc` is within FRAME_SHAPE, or what it breaks. Iterative: no input deepens the stack. */
export function frameShapeProblem(doc: unknown): string | null {
  const t = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as { t?: unknown }).t : undefined;
  const ownTask = carriesOwnTask(doc);
  const maxValues = ownTask ? FRAME_SHAPE.ownTask.values : ((typeof t === 'string' && Object.hasOwn(FRAME_SHAPE.values, t) ? FRAME_SHAPE.values[t] : undefined) ?? FRAME_SHAPE.values.other);
  const maxItems = ownTask ? FRAME_SHAPE.ownTask.items : FRAME_SHAPE.items;
  const stack: [unknown, number][] = [[doc, 0]];
  let values = 0;
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (++values > maxValues) return `${typeof t === "string" ? `a "${t.slice(0, 20)}"` : "this"} message has at most ${maxValues} values`;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= FRAME_SHAPE.depth) return `a message nests at most ${FRAME_SHAPE.depth} deep`;
    if (Array.isArray(v)) {
      if (v.length > maxItems) return `an array in a message has at most ${maxItems} items`;
      for (const x of v) stack.push([x, depth + 1]);
    } else {
      const keys = Object.keys(v);
      if (keys.length > FRAME_SHAPE.keys) return `an object in a message has at most ${FRAME_SHAPE.keys} keys`;
      // JSON.parse keeps "__proto__" as a key, but copying it into a new object (as the schema
      // does for a record) sets that object's prototype: the member it named vanished unseen.
      if (Object.hasOwn(v, '__proto__')) return PROTO_KEY;
      for (const k of keys) stack.push([(v as Record<string, unknown>)[k], depth + 1]);
    }
  }
  if (t === 'exchange') {
    const a = (doc as { answers?: unknown }).answers;
    if (!Array.isArray(a) || !a.every((row) => Array.isArray(row) && row.length <= L.exchangeAnswers && row.every((x) => x === null || (typeof x === 'string' && x.length <= L.answerChars)))) {
      return `answers: a list (at most ${L.exchangePrompts}) of lists (at most ${L.exchangeAnswers}) of answers, each text of at most ${L.answerChars} characters or null`;
    }
  }
  return null;
}

type Refusal = Extract<ParsedMessage<never>, { ok: false }>;

/** A frame's JSON, read and bounded: its size, JSON.parse, and (shaped) FRAME_SHAPE. The first half of parsing a frame. */
function readFrame(frame: string, shaped: boolean): { ok: true; doc: unknown } | Refusal {
  if (frame.length > L.frameChars) return { ok: false, code: 'too-large', message: `a message is at most ${L.frameChars} characters` };
  let doc: unknown;
  try {
    doc = JSON.parse(frame);
  } catch {
    return { ok: false, code: 'bad-message', message: 'a message is one JSON object' };
  }
  if (shaped) {
    const problem = frameShapeProblem(doc);
    if (problem) return { ok: false, code: problem === PROTO_KEY ? 'bad-message' : 'too-large', message: problem };
  }
  return { ok: true, doc };
}

function parseFrame<M>(schema: z.ZodType<M>, frame: string, shaped: boolean): ParsedMessage<M> {
  const read = readFrame(frame, shaped);
  return read.ok ? checkDoc(schema, read.doc) : read;
}

/** The second half: the schema over a document readFrame returned. */
function checkDoc<M>(schema: z.ZodType<M>, doc: unknown): ParsedMessage<M> {
  try {
    const r = schema.safeParse(doc);
    if (!r.success) {
      const issue = r.error.issues[0];
      return { ok: false, code: 'bad-message', message: `${issue.path.join('.') || 'message'}: ${issue.message}`.slice(0, 300) };
    }
    return { ok: true, message: r.data };
  } catch (e) {
    // safeParse does not throw on bad input, but a RangeError (stack) or the like is refused here, not thrown.
    return { ok: false, code: 'bad-message', message: `the message could not be checked (${e instanceof Error ? e.name : 'error'})` };
  }
}

/** A frame from a client, checked (the server's side): size, JSON, FRAME_SHAPE, then the schema. Never throws. */
export const parseClientMessage = (frame: string) => parseFrame(ClientMessageSchema, frame, true);
/**
 * parseClientMessage in two halves, for a server that checks some messages elsewhere (a task of
 * one's own can take seconds to check: server/taskChecks.ts): the frame read and bounded, then
 * the schema over what it read. Neither throws.
 */
export const readClientFrame = (frame: string) => readFrame(frame, true);
export const checkClientDoc = (doc: unknown) => checkDoc(ClientMessageSchema, doc);
/** A frame from the server, checked (the page's side). Never throws. */
export const parseServerMessage = (frame: string) => parseFrame(ServerMessageSchema, frame, false);
