/**
 * Fuzzed client frames, from a seed: valid messages of every kind mutated (a value replaced by
 * another type, a key dropped or added, a string lengthened, a number made huge or fractional, an
 * array or object wrapped deeply), random JSON, truncated text, and binary frames.
 */
import { ROOM_PROTOCOL_VERSION } from '../../src/room/protocol';
import { presetSpec } from '../load/harness';
import { generator, syntheticRun } from '../load/syntheticRun';

const ID = 'AbCdEfGhIjKlMnOpQrStUv';

export function fuzzFrames(n: number, seed: number): (string | Buffer)[] {
  const rand = generator(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const spec = presetSpec('peers-learn');
  const run = syntheticRun(spec, seed);
  const valid: unknown[] = [
    { t: 'create', v: ROOM_PROTOCOL_VERSION, name: 'x', preset: null, spec, baseSeed: 1, pairing: true },
    { t: 'present', v: ROOM_PROTOCOL_VERSION, room: ID, key: ID },
    { t: 'join', v: ROOM_PROTOCOL_VERSION, room: ID, seat: { index: 3, token: ID }, takeover: true },
    { t: 'event', seq: 0, event: run[0] },
    { t: 'event', seq: 5, event: run[5] },
    { t: 'exchange', step: 1, kind: 'train', answers: [['1', null, '2']] },
    { t: 'lock', locked: true },
    { t: 'remove-seat', seat: 0 },
    { t: 'start' },
    { t: 'ping' },
  ];
  const odd: unknown[] = [null, true, -1, 1e308, -0, 0.5, 2 ** 53 + 1, '', 'x'.repeat(5000), [], {}, { __proto__: { t: 'ping' } }, '__proto__', [[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]];
  const mutate = (v: unknown, depth: number): unknown => {
    if (rand() < 0.15 || depth > 12) return pick(odd);
    if (Array.isArray(v)) {
      const out = v.map((x) => (rand() < 0.3 ? mutate(x, depth + 1) : x));
      if (rand() < 0.1) out.push(...Array(Math.floor(rand() * 3000)).fill(pick(odd)));
      return out;
    }
    if (v && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (rand() < 0.05) continue;
        out[rand() < 0.03 ? pick(['__proto__', 'constructor', 'x'.repeat(100), '']) : k] = rand() < 0.3 ? mutate(x, depth + 1) : x;
      }
      if (rand() < 0.05) for (let i = 0; i < 200; i++) out[`k${i}`] = pick(odd);
      return out;
    }
    if (typeof v === 'string') return rand() < 0.5 ? v + '\u0000\u202e'.repeat(Math.floor(rand() * 100)) : pick(odd);
    if (typeof v === 'number') return pick([v * 1e6, -v, v + 0.5, 2 ** 31, Number.MAX_SAFE_INTEGER]);
    return pick(odd);
  };
  const frames: (string | Buffer)[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.7) frames.push(JSON.stringify(mutate(pick(valid), 0)));
    else if (r < 0.8) frames.push(JSON.stringify(pick(valid)).slice(0, Math.floor(rand() * 200)));
    else if (r < 0.87) {
      const d = 10 + Math.floor(rand() * 20_000);
      frames.push('{"t":"event","seq":0,"event":' + '['.repeat(d) + ']'.repeat(d) + '}');
    } else if (r < 0.94) frames.push(Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 64) }, () => Math.floor(rand() * 256))));
    else frames.push(JSON.stringify(pick(odd)));
  }
  return frames;
}
