/**
 * The overlap dial's part of the spec (docs/METHOD.md, "Overlap dial"; the warm start itself is in
 * overlapDial.ts). A member with `dial` warm-starts with part of another member's (its source's)
 * warm start, so its errors overlap the source's by a chosen share:
 *
 *   fork    it starts from the source's initial weights and the first `share` of the source's
 *           warm-start steps (the source's data in the source's order), then goes on with its own
 *           data and order to its own target; share 1 is the source's warm start itself, a twin.
 *           Same shape as the source (the weights are copied).
 *   labels  its own initial weights and data, but on a `share` of its warm-start problems it
 *           imitates the source's greedy answer (scratchpad included) instead of the reference: a
 *           partner that inherited the source's mistakes. Any shape or family.
 *   blend   the source's initial weights warm-started on its own data and order to its own target
 *           (a fork at share 0), then its weights moved `share` of the way to the source's final
 *           weights; trained on to its target if the blend falls short. Share 1 is a twin.
 *
 * Pure: no tfjs, so the page's spec checks can use it.
 */

/**
 * A problem as spec.ts's specProblems reports it (its SpecProblem, the same shape): written out
 * here because spec.ts imports this file.
 */
type SpecProblem = { path: (string | number)[]; message: string };

export const DIAL_MODES = ['fork', 'labels', 'blend'] as const;
export type DialMode = (typeof DIAL_MODES)[number];

export interface DialSpec {
  /** The member whose warm start is shared (the anchor). */
  from: string;
  mode: DialMode;
  /** 0-1: the share of the source's warm-start steps (fork) or of this member's labels (labels). */
  share: number;
}

interface DialMember {
  id: string;
  family: string;
  dModel: number;
  layers: number;
  heads?: number;
  window?: number;
  dial?: DialSpec;
}

const SHAPE_FIELDS = ['family', 'dModel', 'layers', 'heads', 'window'] as const;

/**
 * A dial names another member without a dial of its own; a fork or a blend has the source's shape.
 * (A source without a target is fine: its warm start is its whole budget. The backend probe runs
 * every member with no warm start at all: measureBackends.ts probeSpecFor.)
 */
export function dialProblems(spec: { members: DialMember[] }): SpecProblem[] {
  const out: SpecProblem[] = [];
  const byId = new Map(spec.members.map((m) => [m.id, m]));
  spec.members.forEach((m, i) => {
    if (!m.dial) return;
    const path = ['members', i, 'dial'];
    const src = byId.get(m.dial.from);
    if (!src) return void out.push({ path: [...path, 'from'], message: `member ${m.id}: no member "${m.dial.from}" to share a warm start with` });
    if (src.id === m.id) return void out.push({ path: [...path, 'from'], message: `member ${m.id}: a member cannot share its own warm start` });
    if (src.dial) return void out.push({ path: [...path, 'from'], message: `member ${m.id}: its source ${src.id} has a dial of its own (one level only)` });
    if (m.dial.mode === 'fork' || m.dial.mode === 'blend') {
      const differ = SHAPE_FIELDS.filter((k) => (m[k] ?? null) !== (src[k] ?? null));
      if (differ.length) out.push({ path: [...path, 'mode'], message: `member ${m.id}: a fork copies ${src.id}'s weights, so it needs its shape (${differ.join(', ')} differ); use mode 'labels' for another shape` });
    }
  });
  return out;
}
