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
