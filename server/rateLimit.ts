/**
 * A token bucket per connection: `rate` messages a second on average, `burst` saved up at most
 * (ROOM_LIMITS.messagesPerSecond and messageBurst). A connection starts with a full bucket, so a
 * student that reconnects can resend its backlog at once, up to the burst.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Take one token at time `now` (ms); false when the bucket is empty. */
  take(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
