/**
 * A run file carries its task of one's own: the spec it holds keeps the definition (a generator,
 * or a data task's rows), and a file whose definition was tampered with is refused in words.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import { specWithTask } from '../core/experiment/withTask';
import type { TaskDefinition } from '../core/tasks/custom/index';
import { GALLERY } from '../core/tasks/custom/gallery';
import { armMetrics, stepEvent } from '../app/store/fixtures';
import { parseBundle, serializeBundle } from './bundle';

function specOf(def: TaskDefinition) {
  const r = specWithTask(PRESETS.quick.spec, def);
  if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
  return r.spec;
}

/** A run paused after its first RL step: the shortest record a run file holds. */
function record(spec: ReturnType<typeof specOf>) {
  return {
    spec,
    backend: 'wasm',
    events: [
      {
        type: 'base' as const,
        members: spec.members.map((m) => ({ id: m.id, family: m.family, params: 3100, label: 'MLP' })),
        base: spec.members.map((m) => ({ memberId: m.id, passAt1: 0.4, majAtG: 0.5 })),
        baseKappa: [],
      },
      stepEvent(1, spec.arms.map((a) => armMetrics(a.id, a.scheme, Object.fromEntries(a.members.map((m) => [m, { reward: 0.5 }])))), { steps: spec.steps, samples: [], stepMs: 10, tokens: 100 }),
    ],
  };
}

const rows: TaskDefinition = {
  kind: 'data',
  title: 'Pairs',
  rows: Array.from({ length: 100 }, (_, i) => ({ prompt: `${Math.floor(i / 10)}${i % 10}=`, answer: String(Math.floor(i / 10) + (i % 10)) })),
};

describe('a run file with a task of its own', () => {
  for (const [name, def] of [['a gallery generator', GALLERY[0].definition] as const, ['a data task', rows] as const]) {
    it(`keeps ${name} whole`, () => {
      const spec = specOf(def);
      const parsed = parseBundle(serializeBundle(record(spec), 'mine'));
      expect(parsed.ok ? 'ok' : parsed.error).toBe('ok');
      if (parsed.ok) expect(parsed.bundle.record.spec.task).toEqual(spec.task);
    });
  }

  it('refuses a file whose task cannot run, saying why', () => {
    const spec = specOf(rows);
    const text = serializeBundle(record(spec), 'mine').replace('"answer":"0"', '"answer":""');
    const parsed = parseBundle(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/answer empty/);
  });
});
