import { describe, expect, it } from 'vitest';
import type { SavedRunMeta } from './runData';
import { blockRunsOf, canonicalJson, lastRunOf } from './lastRun';

const meta = (id: string, spec: unknown, updatedAt: number, extra: Partial<SavedRunMeta> = {}): SavedRunMeta =>
  ({ id, name: id, createdAt: updatedAt, updatedAt, presetId: 'quick', edited: false, spec, backend: 'wasm', status: 'done', stepsDone: 6, eventCount: 9, checkpointStep: 6, error: null, ...extra }) as SavedRunMeta;

describe('the last run after a reload', () => {
  it('compares experiments by their settings, not their key order', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe(canonicalJson({ a: [{ c: 3, d: 2 }], b: 1 }));
    expect(canonicalJson({ a: 1 })).not.toBe(canonicalJson({ a: 2 }));
  });
  it('is the newest saved run of the same experiment with a step', () => {
    const spec = { seed: 1, steps: 6 };
    const metas = [meta('old', spec, 1), meta('new', { steps: 6, seed: 1 }, 3), meta('other', { seed: 2, steps: 6 }, 5), meta('empty', spec, 9, { stepsDone: 0 })];
    expect(lastRunOf(metas, spec)?.id).toBe('new');
  });
  it('a failed run is not brought back; none of this experiment gives null', () => {
    const spec = { seed: 1 };
    expect(lastRunOf([meta('failed', spec, 5, { status: 'error' })], spec)).toBeNull();
    expect(lastRunOf([], spec)).toBeNull();
  });
  it("a paired seat's member part is found only as that member part, never as a whole run", () => {
    const spec = { seed: 1 };
    const a = { armId: 'peer', memberId: 'A' };
    const metas = [meta('whole', spec, 1), meta('part-a', spec, 5, { memberPart: a }), meta('part-b', spec, 9, { memberPart: { armId: 'peer', memberId: 'B' } })];
    expect(lastRunOf(metas, spec)?.id).toBe('whole');
    expect(lastRunOf(metas, spec, a)?.id).toBe('part-a');
    expect(lastRunOf(metas.slice(0, 1), spec, a)).toBeNull();
  });

  it("a block of seeds comes back whole (an own task's Start), the newest finished run of each seed, or not at all", () => {
    const spec = { seed: 110, steps: 6 };
    const metas = [
      meta('s110', spec, 1),
      meta('s111-old', { ...spec, seed: 111 }, 2),
      meta('s111', { ...spec, seed: 111 }, 3),
      meta('s112', { seed: 112, steps: 6 }, 4),
      meta('s113-stopped', { ...spec, seed: 113 }, 9, { status: 'stopped' }),
    ];
    expect(blockRunsOf(metas, spec, 3)?.map((m) => m.id)).toEqual(['s110', 's111', 's112']);
    // Seed 113 only stopped: a block of 4 is not saved whole.
    expect(blockRunsOf(metas, spec, 4)).toBeNull();
    expect(blockRunsOf([...metas, meta('s113', { ...spec, seed: 113 }, 5)], spec, 4)?.map((m) => m.id)).toEqual(['s110', 's111', 's112', 's113']);
    // Other settings are another experiment.
    expect(blockRunsOf(metas, { seed: 110, steps: 7 } as { seed: number }, 2)).toBeNull();
  });
});
