import { describe, expect, it } from 'vitest';
import { MISLEAD_COLOR, RESCUE_COLOR, SHARED_ERROR_COLOR } from '../charts/mechanismDefs';
import { TRUTH_COLOR } from '../charts/seriesDefs';
import { closestPair, deltaE } from './colorVision';
import { MEMBER_DASHES, SCHEME_COLORS, armColors, dashArray, kappaColor, memberDashes, withAlpha } from './colors';

describe('armColors', () => {
  it('gives each arm its scheme colour', () => {
    const c = armColors([
      { id: 'o', scheme: 'oracle' },
      { id: 's', scheme: 'self' },
      { id: 'p', scheme: 'peer' },
    ]);
    expect(c).toEqual({ o: SCHEME_COLORS.oracle, s: SCHEME_COLORS.self, p: SCHEME_COLORS.peer });
  });

  it('gives a repeated scheme a distinct spare colour, stable across calls', () => {
    const arms = [
      { id: 'self1', scheme: 'self' },
      { id: 'self2', scheme: 'self' },
    ];
    const c = armColors(arms);
    expect(c.self1).toBe(SCHEME_COLORS.self);
    expect(c.self2).not.toBe(c.self1);
    expect(armColors(arms)).toEqual(c);
  });

  it('never repeats a colour among 8 arms', () => {
    const arms = Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, scheme: 'peer' }));
    expect(new Set(Object.values(armColors(arms))).size).toBe(8);
  });

  it('handles an unknown scheme', () => {
    expect(armColors([{ id: 'x', scheme: 'mystery' }]).x).toMatch(/^#/);
  });
});

describe('memberDashes', () => {
  it('draws the first member solid and the second dashed', () => {
    const d = memberDashes(['A', 'B']);
    expect(d.A).toEqual([]);
    expect(d.B).toEqual([8, 4]);
  });
  it('gives six members six different patterns', () => {
    const d = memberDashes(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(new Set(Object.values(d).map((x) => x.join(','))).size).toBe(6);
    expect(MEMBER_DASHES.length).toBeGreaterThanOrEqual(6);
  });
  it('formats dash arrays for SVG', () => {
    expect(dashArray([])).toBe('');
    expect(dashArray([8, 4])).toBe('8 4');
  });
});

describe('withAlpha and kappaColor', () => {
  it('converts hex to rgba', () => {
    expect(withAlpha('#ff0080', 0.5)).toBe('rgba(255, 0, 128, 0.5)');
    expect(withAlpha('red', 0.5)).toBe('red');
  });
  it('is transparent for a missing kappa and deeper for larger kappa', () => {
    expect(kappaColor(null)).toBe('transparent');
    expect(kappaColor(0)).toBe('rgba(214, 39, 40, 0.080)');
    expect(kappaColor(1)).toBe('rgba(214, 39, 40, 0.700)');
    expect(kappaColor(-0.5)).toBe('rgba(31, 119, 180, 0.390)');
    expect(kappaColor(3)).toBe(kappaColor(1));
  });
});

describe('the palette under colour-vision deficiencies', () => {
  const views = ['normal', 'protanopia', 'deuteranopia'] as const;

  it('simulates known cases: white and grey stay put, red and green move together under deuteranopia', () => {
    expect(deltaE('#ffffff', '#ffffff', 'deuteranopia')).toBe(0);
    expect(deltaE('#808080', '#808080', 'protanopia')).toBeCloseTo(0, 6);
    // The classic confusion: a red and a green of similar lightness are far apart for normal
    // vision and close for a deuteranope.
    expect(deltaE('#d62728', '#2ca02c', 'normal')).toBeGreaterThan(60);
    expect(deltaE('#d62728', '#2ca02c', 'deuteranopia')).toBeLessThan(20);
  });

  it('keeps every pair of scheme colours apart for normal, protan and deutan viewers (Delta E >= 15), tritan >= 12', () => {
    for (const v of views) {
      const c = closestPair(SCHEME_COLORS, v);
      expect(c.distance, `${v}: ${c.a} vs ${c.b}`).toBeGreaterThanOrEqual(15);
    }
    const t = closestPair(SCHEME_COLORS, 'tritanopia');
    expect(t.distance, `tritanopia: ${t.a} vs ${t.b}`).toBeGreaterThanOrEqual(12);
  });

  it('keeps the truth green of the collapse charts apart from every arm colour it is drawn with', () => {
    for (const v of views) for (const [scheme, color] of Object.entries(SCHEME_COLORS)) expect(deltaE(TRUTH_COLOR, color, v), `${v}: ${scheme}`).toBeGreaterThanOrEqual(15);
  });

  it('keeps rescue, mislead and shared error apart', () => {
    for (const v of [...views, 'tritanopia'] as const) {
      const c = closestPair({ rescue: RESCUE_COLOR, mislead: MISLEAD_COLOR, shared: SHARED_ERROR_COLOR }, v);
      expect(c.distance, `${v}: ${c.a} vs ${c.b}`).toBeGreaterThanOrEqual(20);
    }
  });

  it('keeps the member dashes: the cue that needs no colour at all', () => {
    expect(memberDashes(['A', 'B', 'C']).A).toEqual([]);
    expect(new Set(MEMBER_DASHES.map((d) => d.join(','))).size).toBe(MEMBER_DASHES.length);
  });
});
