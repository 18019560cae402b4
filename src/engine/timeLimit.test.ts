import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTimeLimit } from './timeLimit';

describe('withTimeLimit', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('rejects with the message when the work never settles', async () => {
    const hung = new Promise<string>(() => {});
    const limited = withTimeLimit(hung, 90_000, 'no tfjs backend started within 90 s');
    const seen = limited.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(89_999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await seen).toBe('no tfjs backend started within 90 s');
  });

  it('gives the outcome of work that settles in time, and clears its timer', async () => {
    await expect(withTimeLimit(Promise.resolve('wasm'), 90_000, 'late')).resolves.toBe('wasm');
    await expect(withTimeLimit(Promise.reject(new Error('no usable tfjs backend')), 90_000, 'late')).rejects.toThrow('no usable tfjs backend');
    expect(vi.getTimerCount()).toBe(0);
  });
});
