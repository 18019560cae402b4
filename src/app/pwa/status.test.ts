/** The page's record of what the service worker said (status.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPwaUpdate, getPwaStatus, resetPwaStatus, setPwaStatus, setUpdateAction, subscribePwaStatus } from './status';

afterEach(() => resetPwaStatus());

describe('service worker status', () => {
  it('starts with nothing to say and tells subscribers of every change', () => {
    expect(getPwaStatus()).toEqual({ offlineReady: false, updateReady: false });
    const seen: boolean[] = [];
    const stop = subscribePwaStatus(() => seen.push(getPwaStatus().offlineReady));
    setPwaStatus({ offlineReady: true });
    stop();
    setPwaStatus({ offlineReady: false });
    expect(seen).toEqual([true]);
  });

  it('applies an update only when one waits', () => {
    const action = vi.fn();
    setUpdateAction(action);
    expect(applyPwaUpdate()).toBe(false);
    setPwaStatus({ updateReady: true });
    expect(applyPwaUpdate()).toBe(true);
    expect(action).toHaveBeenCalledTimes(1);
  });
});
