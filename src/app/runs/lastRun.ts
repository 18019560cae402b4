/**
 * After a reload, the last run of the experiment on screen comes back (a reload showed
 * empty charts although the run was saved). Pure: which saved run that is. The runs controller
 * shows it (as Open does) and the hero view says what it is, with Resume when it can go on.
 */
import type { MemberSeat } from '../../core/experiment/memberParts';
import type { SavedRunMeta } from './runData';

/** JSON with sorted keys: two specs with the same settings compare equal whatever their key order. */
export function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .filter((k) => o[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The most recently saved run of exactly this experiment with at least one RL step (null: none).
 * `memberPart`: a paired seat's member part (its runs only); none: whole runs only.
 */
export function lastRunOf(metas: readonly SavedRunMeta[], spec: unknown, memberPart: MemberSeat | null = null): SavedRunMeta | null {
  const want = canonicalJson(spec);
  const part = canonicalJson(memberPart);
  const same = metas.filter((m) => m.stepsDone > 0 && m.status !== 'error' && canonicalJson(m.spec) === want && canonicalJson(m.memberPart ?? null) === part);
  same.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
  return same[0] ?? null;
}

/**
 * The saved runs of a block of seeds of this experiment (an own task's Start: seeds spec.seed to
 * spec.seed + count - 1, each finished, the spec otherwise the same), in seed order; null unless
 * every seed of the block is saved. For each seed the most recently saved finished run.
 */
export function blockRunsOf(metas: readonly SavedRunMeta[], spec: { seed: number }, count: number): SavedRunMeta[] | null {
  const out: SavedRunMeta[] = [];
  for (let k = 0; k < count; k++) {
    const want = canonicalJson({ ...spec, seed: spec.seed + k });
    const same = metas.filter((m) => m.status === 'done' && m.memberPart == null && canonicalJson(m.spec) === want);
    same.sort((a, b) => b.updatedAt - a.updatedAt || b.createdAt - a.createdAt);
    if (!same[0]) return null;
    out.push(same[0]);
  }
  return out;
}
