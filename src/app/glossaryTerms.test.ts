import { describe, expect, it } from 'vitest';
import { TERMS } from './Glossary';
import { termId } from './glossaryTerms';

describe('glossary ids', () => {
  it('are plain slugs without the bracketed symbol', () => {
    expect(termId("Cohen's kappa (κ)")).toBe('term-cohen-s-kappa');
    expect(termId('Majority vote (maj@G)')).toBe('term-majority-vote');
    expect(termId('pass@1')).toBe('term-pass-at-1');
    expect(termId('tau (τ)')).toBe('term-tau');
  });
  it('defines the terms the README and the first screen rely on', () => {
    const terms = TERMS.map(([t]) => termId(t));
    for (const t of ['pass@1', 'Majority vote', 'GRPO', 'Held-out', 'Peer', 'Oracle arm', 'Arm', 'Warm start', 'RL step']) expect(terms, t).toContain(termId(t));
  });
  it('every entry has its own id', () => {
    const ids = TERMS.map(([t]) => termId(t));
    expect(new Set(ids).size).toBe(ids.length);
  });
});
