/**
 * The frames a client sends, counted before ws reads them. ws holds every fragment of a message
 * until its last one comes, and reads a whole TCP chunk (up to 64 KiB: 9,000 one-byte fragments)
 * before anything of ours runs: 30 connections each sending a 16,000-fragment message grew the
 * server by 47 MiB although each was cut on its first chunk. So the server reads each chunk's
 * frame headers first (RFC 6455, section 5.2: FIN and opcode, the 7-, 16- or 64-bit length, the
 * mask key), skips their payloads, and hands ws only chunks whose messages stay within the bound.
 * It also says whether a message is unfinished (connection.ts times those).
 */
export class FrameCounter {
  /** Header bytes of a frame not yet whole (at most 14). */
  private head: number[] = [];
  /** Payload bytes of the current frame still to come. */
  private skip = 0;
  /** Frames so far of a data message whose last frame has not come. */
  private frames = 0;

  constructor(private readonly maxFragments: number) {}

  /** A message, or a frame, has begun and not ended. */
  get unfinished(): boolean {
    return this.frames > 0 || this.head.length > 0 || this.skip > 0;
  }

  /** Frames of the message being received. */
  get fragments(): number {
    return this.frames;
  }

  /** Read `chunk`'s frame headers: false as soon as a message has more than maxFragments frames. */
  feed(chunk: Buffer): boolean {
    let i = 0;
    while (i < chunk.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      this.head.push(chunk[i++]);
      if (this.head.length < headerLength(this.head)) continue;
      const [b0, b1] = this.head;
      const len7 = b1 & 0x7f;
      const h = this.head;
      // A 64-bit length beyond 2^53 is beyond maxPayload anyway: ws closes the connection for it.
      this.skip = len7 === 126 ? (h[2] << 8) | h[3] : len7 === 127 ? h.slice(2, 10).reduce((n, b) => n * 256 + b, 0) : len7;
      this.head = [];
      const opcode = b0 & 0x0f;
      if (opcode >= 0x8) continue; // ping, pong, close: allowed between a message's fragments
      const total = this.frames + 1;
      if (total > this.maxFragments) return false;
      this.frames = b0 & 0x80 ? 0 : total;
    }
    return true;
  }
}

/** Bytes of a frame's header, given its first bytes (2 until the second byte says more). */
function headerLength(head: number[]): number {
  if (head.length < 2) return 2;
  const len7 = head[1] & 0x7f;
  const mask = head[1] & 0x80 ? 4 : 0;
  return 2 + (len7 === 126 ? 2 : len7 === 127 ? 8 : 0) + mask;
}
