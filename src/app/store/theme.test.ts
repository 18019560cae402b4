/** The page's first theme follows the system's colour scheme (not light on a dark system). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialUiState } from './uiSlice';

afterEach(() => vi.unstubAllGlobals());

const scheme = (dark: boolean) => vi.stubGlobal('matchMedia', (q: string) => ({ matches: dark && q === '(prefers-color-scheme: dark)', media: q }));

describe('the first theme', () => {
  it('is dark where the system prefers dark', () => {
    scheme(true);
    expect(initialUiState().theme).toBe('dark');
  });
  it('is light where it prefers light, or says nothing (Node, an old browser)', () => {
    scheme(false);
    expect(initialUiState().theme).toBe('light');
    vi.unstubAllGlobals();
    expect(initialUiState().theme).toBe('light');
  });
});
