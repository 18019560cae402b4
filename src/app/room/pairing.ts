/**
 * Paired rooms' glue: two browsers train the two members of the spec's peer arm (seats 2k and
 * 2k+1), and each step's answers go through the room. The training worker asks for the partner's
 * answers through an exchange handler; this relays them: the worker's answers to the room
 * (client.sendExchange), the partner's back when the room has them (client.partnerAnswers), and
 * says what the seat waits for: "waiting for your partner (seat N)…" after a few seconds, "your
 * partner left; the run waits for them" while the partner's seat is disconnected.
 *
 * The worker's side (lab.start with a memberPart, lab.setExchangeHandler, lab.replyExchange) is
 * injected, so the tests drive it with a fake; seatRun.ts wires it to the real `lab`
 * (src/app/trainingWorker.ts) for a paired seat's run, started or resumed.
 */
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { Answers, ExchangeKind } from '../../room/exchanges';
import type { SeatInfo } from '../../room/protocol';
import type { PartnerWait } from '../store/roomSlice';

/** What the worker asks and is answered with: its run, the step, the kind and the answers per prompt. */
export interface ExchangeRequest {
  runId: number;
  step: number;
  kind: ExchangeKind;
  answers: Answers;
}

/** The member of a paired arm that this browser trains. */
export interface MemberPart {
  armId: string;
  memberId: string;
}

/** The worker's side, injected. */
export interface PairedLab {
  start(opts: { seed: number; memberPart: MemberPart }): boolean;
  setExchangeHandler(handler: ((req: ExchangeRequest) => void) | null): void;
  replyExchange(reply: ExchangeRequest): void;
}

/** The room's side (a RoomConnection). */
export interface PairedRoom {
  sendExchange(step: number, kind: ExchangeKind, answers: Answers): void;
  partnerAnswers(step: number, kind: ExchangeKind): Promise<Answers>;
}

/** Seconds of waiting before the page says it waits. */
export const PARTNER_WAIT_MS = 3000;

/**
 * The peer arm's member this seat trains: its member of its pair's level (null: not a paired seat,
 * or no such arm). A seat from a server older than levels names none: its pair trains the first
 * peer arm with that member, as then.
 */
export function memberPartOf(spec: ExperimentSpec, seat: SeatInfo): MemberPart | null {
  const member = seat.member;
  if (member === null) return null;
  const arm = seat.level
    ? spec.arms.find((a) => a.id === seat.level && a.scheme === 'peer' && a.members.includes(member))
    : spec.arms.find((a) => a.scheme === 'peer' && a.members.includes(member));
  return arm ? { armId: arm.id, memberId: member } : null;
}

/** Start this seat's part of a paired run: its seed and its member. False when it cannot. */
export function startPairedSeat(lab: Pick<PairedLab, 'start'>, spec: ExperimentSpec, seat: SeatInfo): boolean {
  const memberPart = memberPartOf(spec, seat);
  return memberPart ? lab.start({ seed: seat.seed, memberPart }) : false;
}

export interface RelayOptions {
  /** The partner's seat and whether it is connected now (from the room's RoomInfo). */
  partner(): { seat: number | null; connected: boolean };
  /** What the page shows: null when not waiting (or not for long yet). */
  onWait(wait: PartnerWait | null): void;
  waitMs?: number;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
}

export interface Relay {
  /** The room's seats changed: the wait's words follow the partner's connection. */
  partnerChanged(): void;
  /** Stop relaying (the handler is removed). */
  stop(): void;
}

/** Relay every exchange the worker asks for through the room, until stop(). */
export function relayExchanges(lab: Pick<PairedLab, 'setExchangeHandler' | 'replyExchange'>, room: PairedRoom, opts: RelayOptions): Relay {
  const setT = opts.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearT = opts.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof setTimeout>));
  const waitMs = opts.waitMs ?? PARTNER_WAIT_MS;
  let stopped = false;
  /** Requests waiting for the partner, and whether the page says so yet. */
  let pending = 0;
  let shown = false;
  let timer: unknown = null;

  const show = () => {
    if (stopped) return;
    if (pending === 0 || !shown) {
      opts.onWait(null);
      return;
    }
    const p = opts.partner();
    // No partner yet (the odd seat out) is not a partner who left: the page words each its own way.
    opts.onWait({ partner: p.seat, left: p.seat !== null && !p.connected });
  };

  lab.setExchangeHandler((req) => {
    if (stopped) return;
    room.sendExchange(req.step, req.kind, req.answers);
    pending++;
    if (timer === null && !shown) {
      timer = setT(() => {
        timer = null;
        shown = true;
        show();
      }, waitMs);
    }
    room.partnerAnswers(req.step, req.kind).then(
      (answers) => {
        if (stopped) return;
        pending--;
        if (pending === 0) {
          if (timer !== null) clearT(timer);
          timer = null;
          shown = false;
        }
        show();
        lab.replyExchange({ runId: req.runId, step: req.step, kind: req.kind, answers });
      },
      () => {
        // The connection was closed (the student left the room): the run waits; nothing to reply.
        pending = Math.max(0, pending - 1);
      },
    );
  });

  return {
    partnerChanged: show,
    stop() {
      stopped = true;
      if (timer !== null) clearT(timer);
      lab.setExchangeHandler(null);
      opts.onWait(null);
    },
  };
}
