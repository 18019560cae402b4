/**
 * A paired seat's answer exchange (class mode's peers across browsers, docs/ROOM.md): this seat's
 * recent answers, kept to send again after a rejoin, and the partner's answers keyed by step and
 * kind, kept for the room's life, since a member part resumed from its checkpoint asks again for
 * the steps after it (the partner's answers there are the same). Whoever asks before the partner's
 * answers arrive waits; ending the exchange rejects every waiter. No socket here: the room client
 * (client.ts) sends and receives.
 */
export type ExchangeKind = 'train' | 'eval';
export type Answers = (string | null)[][];

/** This seat's answers kept for a rejoin: a run never waits on more than the last few steps. */
const MINE_KEPT = 8;

interface Waiter {
  resolve(answers: Answers): void;
  reject(error: Error): void;
}

const keyOf = (step: number, kind: ExchangeKind) => `${step}:${kind}`;

export class AnswerExchanges {
  private mine = new Map<string, { step: number; kind: ExchangeKind; answers: Answers }>();
  private theirs = new Map<string, Answers>();
  private waiters = new Map<string, Waiter[]>();
  private ended: Error | null = null;

  /** This seat's answers at a step, kept to send again after a rejoin. */
  remember(step: number, kind: ExchangeKind, answers: Answers): void {
    this.mine.set(keyOf(step, kind), { step, kind, answers });
    while (this.mine.size > MINE_KEPT) this.mine.delete(this.mine.keys().next().value as string);
  }

  /** This seat's kept answers, oldest first (to send after a rejoin). */
  kept(): { step: number; kind: ExchangeKind; answers: Answers }[] {
    return [...this.mine.values()];
  }

  /** The partner's answers at a step, now if held, else when they arrive. */
  partnerAnswers(step: number, kind: ExchangeKind): Promise<Answers> {
    const key = keyOf(step, kind);
    const held = this.theirs.get(key);
    if (held) return Promise.resolve(held);
    if (this.ended) return Promise.reject(this.ended);
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(key) ?? [];
      list.push({ resolve, reject });
      this.waiters.set(key, list);
    });
  }

  /** The partner's answers arrived (again after a rejoin: the same answers, kept once). */
  received(step: number, kind: ExchangeKind, answers: Answers): void {
    const key = keyOf(step, kind);
    this.theirs.set(key, answers);
    const list = this.waiters.get(key);
    if (!list) return;
    this.waiters.delete(key);
    for (const w of list) w.resolve(answers);
  }

  /** Whether a partner's answers are awaited now. */
  get waiting(): boolean {
    return this.waiters.size > 0;
  }

  /** No more answers will come: every waiter, now and later, is rejected with `error`. */
  end(error: Error): void {
    this.ended = error;
    for (const list of this.waiters.values()) for (const w of list) w.reject(error);
    this.waiters.clear();
  }
}
