/**
 * The operator's log, rate-limited per source address: one device that sends wrong guesses as
 * fast as it can made about 2,700 lines a second, burying the lines a teacher needs. Lines about
 * an address are printed up to `perAddress` in a window of `windowMs`, and up to `total` for all
 * addresses together; the rest are counted, and when the window ends one line says how many were
 * left out and from whom. Lines about no address (the server's own: start, sweep, store) are
 * always printed.
 */

/** Addresses named one by one in a window's summary; the rest are counted together. */
const NAMED = 5;

export class LogLimiter {
  private windowStart: number | null = null;
  private printed = new Map<string, number>();
  private printedTotal = 0;
  private suppressed = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly out: (line: string) => void,
    private readonly o: { perAddress: number; total: number; windowMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  /** Print `line` about `address` (null: about none) if its budget allows, else count it. */
  line(line: string, address: string | null = null): void {
    if (address === null) return this.out(line);
    const now = this.now();
    if (this.windowStart !== null && now - this.windowStart >= this.o.windowMs) this.endWindow();
    if (this.windowStart === null) {
      this.windowStart = now;
      this.timer = setTimeout(() => this.endWindow(), this.o.windowMs);
      this.timer.unref?.();
    }
    const mine = this.printed.get(address) ?? 0;
    if (mine < this.o.perAddress && this.printedTotal < this.o.total) {
      this.printed.set(address, mine + 1);
      this.printedTotal++;
      return this.out(line);
    }
    this.suppressed.set(address, (this.suppressed.get(address) ?? 0) + 1);
  }

  /** End the window now: print what was left out of it (the server calls this as it closes). */
  endWindow(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.windowStart === null) return;
    const seconds = Math.max(1, Math.round((this.now() - this.windowStart) / 1000));
    const left = [...this.suppressed].sort((a, b) => b[1] - a[1]);
    this.windowStart = null;
    this.printed.clear();
    this.printedTotal = 0;
    this.suppressed.clear();
    for (const [address, n] of left.slice(0, NAMED)) this.out(`log: ${n} more line${n === 1 ? '' : 's'} about ${address} left out in the last ${seconds} s (at most ${this.o.perAddress} per address every ${this.o.windowMs / 1000} s)`);
    const rest = left.slice(NAMED);
    if (rest.length > 0) this.out(`log: ${rest.reduce((n, [, k]) => n + k, 0)} more lines about ${rest.length} other addresses left out in the last ${seconds} s`);
  }
}
