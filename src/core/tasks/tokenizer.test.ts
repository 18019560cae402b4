import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BOS_ID, EOS_ID, PAD_ID, VOCAB, VOCAB_SIZE, decode, encode, encodePrompt, encodeTarget,
} from './tokenizer';

describe('vocabulary', () => {
  it('puts the specials first, then the digits and the task symbols', () => {
    expect([PAD_ID, BOS_ID, EOS_ID]).toEqual([0, 1, 2]);
    expect(VOCAB.join('')).toBe('_^$0123456789+=,>R');
    expect(VOCAB_SIZE).toBe(18);
    expect(new Set(VOCAB).size).toBe(VOCAB_SIZE);
  });
});

describe('encode / decode', () => {
  it('maps characters to their vocabulary index', () => {
    expect(encode('8+3=')).toEqual([11, 13, 6, 14]);
    expect(encode('')).toEqual([]);
  });

  it('round-trips any string over the non-special alphabet', () => {
    const unit = fc.constantFrom(...VOCAB.slice(3));
    fc.assert(fc.property(fc.string({ unit, maxLength: 40 }), (s) => decode(encode(s)) === s));
  });

  it('drops PAD and BOS and shows EOS as $', () => {
    expect(decode([BOS_ID, 11, 13, 6, 14, 3, EOS_ID, PAD_ID, PAD_ID])).toBe('8+3=0$');
    expect(decode(Int32Array.from([PAD_ID, BOS_ID]))).toBe('');
  });

  it('throws a clear error on an unknown character', () => {
    expect(() => encode('12a4')).toThrow(/"a" at position 2/);
    expect(() => encode('1-2')).toThrow(/not in the vocabulary/);
  });

  it('throws on a token id outside the vocabulary', () => {
    expect(() => decode([3, VOCAB_SIZE])).toThrow(RangeError);
    expect(() => decode([-1])).toThrow(RangeError);
  });
});

describe('encodePrompt / encodeTarget', () => {
  it('starts a prompt with BOS and ends a target with EOS', () => {
    expect(encodePrompt('8+3=')).toEqual([BOS_ID, 11, 13, 6, 14]);
    expect(encodeTarget('8>1')).toEqual([11, 16, 4, EOS_ID]);
    expect(encodeTarget('')).toEqual([EOS_ID]);
  });
});
