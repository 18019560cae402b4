/**
 * The projector's headline: one plain sentence (two at most) generated from the class's runs, so a
 * room reads the story before the numbers: "In 2 of 3 browsers the models that graded themselves
 * got worse on new problems while their reward went up." Pure: from the runs' summaries.
 *
 * "Got worse": held-out pass@1 at the end below the start by at least the page's level band
 * (changeRule.ts heldOnPage, the rule the class's claims on the same screen count by, so the
 * headline and the claims agree); "reward went up": the arm's label-free reward over its last steps
 * above its first steps (a mean over up to five steps each end, as one step is noisy). "Got
 * better": the peer arm's held-out pass@1 rose by that band.
 */
import { armPassAt1 } from '../../core/experiment/claims';
import { heldOnPage } from '../run/changeRule';
import type { RunSummary } from '../../core/experiment/events';

const EDGE = 5;
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);

/** The arm's reward at its first and last steps (means over up to EDGE steps, over its members). */
export function armReward(run: RunSummary, armId: string): { start: number; end: number } | null {
  const arm = run.arms.find((a) => a.id === armId);
  if (!arm || arm.members.length === 0) return null;
  const starts: number[] = [];
  const ends: number[] = [];
  for (const m of arm.members) {
    const r = m.history.map((e) => e.reward).filter((v) => Number.isFinite(v));
    if (r.length < 2) continue;
    const k = Math.max(1, Math.min(EDGE, Math.floor(r.length / 2)));
    starts.push(mean(r.slice(0, k)));
    ends.push(mean(r.slice(-k)));
  }
  return starts.length ? { start: mean(starts), end: mean(ends) } : null;
}

/** What one run of the class is called, in the plural ("browsers", "pairs"). */
const PLURAL: Record<string, [string, string]> = { browser: ['browser', 'browsers'], pair: ['pair', 'pairs'], seed: ['seed', 'seeds'] };

export function classHeadline(runs: readonly RunSummary[], unit: 'browser' | 'pair' | 'seed', training: boolean): string | null {
  const n = runs.length;
  if (n === 0) return null;
  const [one, many] = PLURAL[unit];
  const of = `${n} ${n === 1 ? one : many}`;
  const sentences: string[] = [];
  if (runs.every((r) => r.arms.some((a) => a.id === 'self'))) {
    const fooled = runs.filter((r) => {
      const p = armPassAt1(r, 'self');
      const w = armReward(r, 'self');
      return p != null && w != null && heldOnPage(p.start - p.end) && w.end > w.start;
    }).length;
    sentences.push(
      fooled === 0
        ? `In none of ${of} did the models that graded themselves get worse on new problems while their reward went up.`
        : `In ${fooled} of ${of} the models that graded themselves got worse on new problems while their reward went up.`,
    );
  }
  if (runs.every((r) => r.arms.some((a) => a.id === 'peer'))) {
    const learned = runs.filter((r) => {
      const p = armPassAt1(r, 'peer');
      return p != null && heldOnPage(p.end - p.start);
    }).length;
    sentences.push(`The models graded by a partner got better in ${learned} of ${of}.`);
  }
  // A paired class of partner levels (arms peer-S, peer-T, ...: the overlap experiment, each pair one
  // partner): the same count, per partner, over the runs that trained that partner. A class whose
  // runs train every partner has the self sentence, and the overlap panel beside it for the partners.
  const partners = [...new Set(runs.flatMap((r) => r.arms.map((a) => a.id)))].filter((id) => /^peer-./.test(id));
  if (sentences.length === 0 && partners.length > 0) {
    const counts = partners.map((id) => {
      const trained = runs.filter((r) => r.arms.some((a) => a.id === id && a.members.length > 0));
      const better = trained.filter((r) => {
        const p = armPassAt1(r, id);
        return p != null && heldOnPage(p.end - p.start);
      }).length;
      return { label: id.slice('peer-'.length), better, of: trained.length };
    }).filter((c) => c.of > 0);
    if (counts.length > 0) {
      const said = counts.map((c, i) => `with ${c.label} in ${c.better} of ${i === 0 ? `${c.of} ${c.of === 1 ? one : many}` : c.of}`);
      sentences.push(`Graded by a partner, the models got better ${said.join(', ')}.`);
    }
  }
  if (sentences.length === 0) return null;
  const text = sentences.join(' ');
  return training ? `So far, ${text.charAt(0).toLowerCase()}${text.slice(1)}` : text;
}

/**
 * The words the projector uses, each defined once on screen: the arms' words only for the schemes
 * the class's charts draw (a paired room draws its peer arms alone, so it defines no self).
 */
export function projectorTerms(schemes: ReadonlySet<string>): (readonly [string, string])[] {
  return PROJECTOR_TERMS.filter(([term]) => !ARM_TERMS.has(term) || schemes.has(term));
}

const ARM_TERMS = new Set(['self', 'peer', 'oracle']);

/** The words the projector uses, each defined once on screen. */
export const PROJECTOR_TERMS: readonly (readonly [string, string])[] = [
  ['held-out pass@1', 'the share of new problems, never trained on, a model gets right in one try: what is actually true'],
  ['label-free reward', 'what a model is paid while training: agreement with a vote, never the answer key'],
  ['self', 'each model is paid for agreeing with its own majority vote'],
  ['peer', "each model is paid for agreeing with its partner's majority vote"],
  ['oracle', 'paid by the true answers: the ceiling no label-free arm can pass'],
  ['seed', "the random start of one browser's run: every browser has its own, so the class is many runs"],
];
