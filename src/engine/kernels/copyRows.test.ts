import { describe, expect, it } from 'vitest';
import { COPY_ROWS } from './concat';
import { instantiateOn } from './heap';

describe('copyRows.wat', () => {
  // Rows of 3 words from a 5-word stride into a 4-word stride, on both builds' memories.
  for (const shared of [false, true]) {
    it(`copies strided rows bit for bit on a ${shared ? 'shared' : 'plain'} memory`, () => {
      const memory = new WebAssembly.Memory(shared ? { initial: 1, maximum: 4, shared: true } : { initial: 1 });
      const copyRows = instantiateOn(memory, COPY_ROWS);
      const words = new Uint32Array(memory.buffer);
      const [src, dst] = [256, 1024]; // byte addresses
      const pattern = [0x7fc01234, 0x80000000, 0x3f800000, 0xffffffff, 7];
      for (let i = 0; i < 20; i++) words[src / 4 + i] = pattern[i % 5] + (i % 5 === 4 ? i : 0);
      words.fill(0xdeadbeef, dst / 4, dst / 4 + 16);
      copyRows(src, dst, 4, 12, 20, 16);
      const out = Array.from(words.subarray(dst / 4, dst / 4 + 16));
      const expected: number[] = [];
      for (let r = 0; r < 4; r++) expected.push(...Array.from(words.subarray(src / 4 + 5 * r, src / 4 + 5 * r + 3)), 0xdeadbeef);
      expect(out).toEqual(expected); // the fourth word of each row untouched
      copyRows(src, dst, 0, 12, 20, 16); // no rows: nothing written
      expect(Array.from(words.subarray(dst / 4, dst / 4 + 16))).toEqual(expected);
    });
  }
});
