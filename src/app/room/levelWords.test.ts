import { describe, expect, it } from 'vitest';
import { getPreset } from '../../core/experiment/presets';
import { hasLevels, levelPhrase, levelShort, roomPlanWords } from './levelWords';

describe("a pair's level in words", () => {
  it("names the overlap preset's partners with the preset's words", () => {
    const spec = getPreset('overlap')!.spec;
    expect(hasLevels(spec)).toBe(true);
    expect(levelPhrase(spec, 'overlap', 'peer-S')).toBe('A with partner S (a sibling from its own seeds)');
    expect(levelPhrase(spec, 'overlap', 'peer-T')).toBe("A with partner T (A's twin: the same weights, its own samples)");
    // An edited experiment (its steps shortened: no preset named) keeps the words of members it left as they were.
    expect(levelPhrase({ ...spec, steps: 2 }, null, 'peer-B50')).toBe("A with partner B50 (B0 moved half of the way to A's weights)");
    // A member edited is no longer the preset's: the ids alone.
    const edited = { ...spec, members: spec.members.map((m) => (m.id === 'B50' ? { ...m, dModel: 32 } : m)) };
    expect(levelPhrase(edited, null, 'peer-B50')).toBe('A with partner B50');
    expect(levelPhrase(spec, 'overlap', 'nope')).toBe('nope');
    expect(levelShort(spec, 'peer-X')).toBe('A with partner X');
  });

  it('has every partner of the overlap preset worded, and peers-learn no levels', () => {
    const p = getPreset('overlap')!;
    const partners = p.spec.arms.filter((a) => a.scheme === 'peer').map((a) => a.members[1]);
    expect(Object.keys(p.partners ?? {}).sort()).toEqual([...partners].sort());
    expect(hasLevels(getPreset('peers-learn')!.spec)).toBe(false);
  });

  it('says what the seats of a room will train, paired or not', () => {
    const overlap = getPreset('overlap')!.spec;
    const learn = getPreset('peers-learn')!.spec;
    expect(roomPlanWords(learn, false)).toBe("every student's browser trains it with a seed of its own");
    expect(roomPlanWords(learn, true)).toBe("each pair of browsers trains the peer arm's two members, one each, with a seed of its own");
    expect(roomPlanWords(overlap, false)).toBe("each student's browser trains A with one partner (S, T, B50, B0, B80, X, in turn), with a seed of its own");
    expect(roomPlanWords(overlap, true)).toBe('each pair of browsers trains A with one partner (S, T, B50, B0, B80, X, in turn), with a seed of its own');
  });
});
