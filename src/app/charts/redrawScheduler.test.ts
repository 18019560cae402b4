import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIN_REDRAW_MS, type RedrawJob, cancel, flush, requestRedraw, setVisible } from './redrawScheduler';

function job(visible = true): RedrawJob & { count: number } {
  const j = { visible, dirty: false, count: 0, draw: () => (j.count += 1) };
  return j;
}

describe('bounded chart redraws', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => setTimeout(() => cb(performance.now()), 16));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('many data changes within the interval make one draw', () => {
    const j = job();
    for (let i = 0; i < 10; i++) requestRedraw(j);
    vi.advanceTimersByTime(50);
    expect(j.count).toBe(1);
    // The next change waits for the rest of the interval.
    requestRedraw(j);
    vi.advanceTimersByTime(MIN_REDRAW_MS / 2);
    expect(j.count).toBe(1);
    vi.advanceTimersByTime(MIN_REDRAW_MS);
    expect(j.count).toBe(2);
    cancel(j);
  });

  it('a chart out of view is not drawn until it comes into view, then once', () => {
    const j = job(false);
    requestRedraw(j);
    requestRedraw(j);
    vi.advanceTimersByTime(5 * MIN_REDRAW_MS);
    expect(j.count).toBe(0);
    setVisible(j, true);
    vi.advanceTimersByTime(5 * MIN_REDRAW_MS);
    expect(j.count).toBe(1);
  });

  it('flush draws at once what is pending (before its pixels are read), and nothing when nothing is', () => {
    const j = job(false);
    requestRedraw(j);
    flush(j);
    expect(j.count).toBe(1);
    flush(j);
    expect(j.count).toBe(1);
  });
});
