import { describe, expect, it } from 'vitest';
import { additionTask } from './addition';
import { digitsumTask } from './digitsum';
import { checkAnswer, completionText, extractAnswer } from './extract';
import { EOS_ID, PAD_ID, encode, encodeTarget } from './tokenizer';

/** Completion tokens for `text`, where '$' stands for EOS (as decode renders it). */
const ids = (text: string): number[] => text.split('$').map(encode).flatMap((part, i) => (i ? [EOS_ID, ...part] : part));

describe('completionText', () => {
  it('stops at the first EOS and ignores the padding after it', () => {
    expect(completionText([...encodeTarget('8,1,0>7'), PAD_ID, PAD_ID])).toBe('8,1,0>7');
    expect(completionText(ids('>7$>3$'))).toBe('>7');
    expect(completionText([EOS_ID])).toBe('');
  });

  it('is null when the length cap was hit (no EOS)', () => {
    expect(completionText(encode('8,1,0>7'))).toBeNull();
    expect(completionText([])).toBeNull();
  });

  it('accepts typed arrays', () => {
    expect(completionText(Int32Array.from(encodeTarget('21,31>132')))).toBe('21,31>132');
  });
});

describe('extractAnswer', () => {
  const digitsum = (text: string) => extractAnswer(ids(text), digitsumTask, 4);
  const addition = (text: string) => extractAnswer(ids(text), additionTask, 2);

  it('reads the text after ">"', () => {
    expect(digitsum('8,1,0>7$')).toBe('7');
    expect(digitsum('>7$')).toBe('7');
    expect(addition('21,31>132$')).toBe('132');
  });

  it('takes the last of two answers', () => {
    expect(digitsum('8>1,0>7$')).toBe('7');
    expect(addition('>131>132$')).toBe('132');
  });

  it('casts no vote for malformed completions', () => {
    expect(digitsum('8,1,0>7')).toBeNull(); // no EOS: length cap hit
    expect(digitsum('8,1,07$')).toBeNull(); // no '>'
    expect(digitsum('8,1,0>$')).toBeNull(); // '>' with nothing after
    expect(digitsum('$')).toBeNull(); // empty
    expect(digitsum('>17$')).toBeNull(); // too long for one digit
    expect(digitsum('>7,$')).toBeNull(); // non-answer character
    expect(digitsum('>R$')).toBeNull(); // a letter
    expect(digitsum('>+$')).toBeNull();
    expect(addition('>1320$')).toBeNull(); // more than n+1 digits
    expect(addition('>052$')).toBeNull(); // leading zero: not the canonical spelling
  });
});

describe('checkAnswer', () => {
  it('is exact string equality, and null is wrong', () => {
    expect(checkAnswer('132', '132')).toBe(true);
    expect(checkAnswer('0132', '132')).toBe(false);
    expect(checkAnswer(null, '7')).toBe(false);
  });
});
