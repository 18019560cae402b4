/**
 * Members that can see the task: before any training, every windowed MLP member's window is
 * measured against the task (windowReach.ts). A window that does not cover what the completions
 * depend on is widened to the narrowest one that does; where no window the schema allows (16)
 * covers it, the member becomes a transformer, which reads the whole sequence (its maxLen is the
 * task's longest sequence: lengths.ts). The transformer and the GRU read every token already.
 *
 * The decision is pure and deterministic from the spec (its seed, task and members), and it is
 * written into the spec's members: a link or a saved run of the fitted spec reproduces the run, and
 * fitting a fitted spec changes nothing. Each change comes with its reason in words, with the
 * measured ceilings.
 */
import { resolveTask } from '../tasks/index';
import { transformer } from './presetKit';
import type { ExperimentSpec, MemberSpec } from './spec';
import { narrowestCover, reachRng, taskSequences, windowReach, type TaskSequences, type WindowReach } from './windowReach';
import { warmStartPercent } from './missWords';

/** The schema's widest MLP window (spec.ts MemberSpecSchema). */
export const MOST_WINDOW = 16;

/** One member changed so that it can see the task. */
export interface MemberFit {
  memberId: string;
  /** The spec fields that changed, before and after. */
  from: Partial<MemberSpec>;
  to: Partial<MemberSpec>;
  /** Why, in one sentence with the measured numbers. */
  why: string;
}

export interface FittedMembers {
  /** The spec with its members fitted (the same object when nothing changed). */
  spec: ExperimentSpec;
  fits: MemberFit[];
  /** Each MLP member's window as the spec had it, measured (by member id). */
  reach: Record<string, WindowReach>;
}

/**
 * A warm-start figure (the chance of writing a reference completion exactly) as a student reads it:
 * 0.133 -> "13%", 0.004 -> "0.4%"; the miss's sentence writes its best and target the same way.
 */
export const percent = warmStartPercent;

/** What the task's sequences look like to a member with this window, measured from the spec's seed. */
export function specSequences(spec: ExperimentSpec): TaskSequences {
  return taskSequences(resolveTask(spec.task), spec.task.difficulty, spec.task.scratchpad, reachRng(spec.seed));
}

/** The sentence for a window that does not cover the task (also the miss diagnosis's: missCause.ts). */
export function windowShortfall(id: string, r: WindowReach): string {
  return (
    `member ${id} reads the last ${r.window} characters, and the prompts have up to ${r.promptChars} (then the completion it writes): ` +
    `no model reading ${r.window} can write more than ${percent(r.ceiling)} of the completions exactly (measured on ${r.problems} problems)`
  );
}

/** A transformer in place of `m`: the presets' size (presetKit.ts transformer), `m`'s seeds, data and target. */
function asTransformer(m: MemberSpec): MemberSpec {
  const t = transformer(m.id, m.warmStartTarget);
  return {
    ...m,
    family: 'transformer',
    dModel: t.dModel,
    layers: t.layers,
    heads: t.heads,
    window: t.window,
    // Transformers sit on a plateau for ~250 warm-start steps before they jump (presetKit.ts transformer).
    warmStartSteps: Math.max(m.warmStartSteps, t.warmStartSteps),
  };
}

/**
 * The spec with every MLP member that cannot see the task widened, or made a transformer, and why.
 * Members that already cover the task are left exactly as they are.
 */
export function fitMembers(spec: ExperimentSpec, data?: TaskSequences): FittedMembers {
  const mlps = spec.members.filter((m) => m.family === 'mlp');
  if (mlps.length === 0) return { spec, fits: [], reach: {} };
  const seqs = data ?? specSequences(spec);
  const least = leastWindow(spec, seqs);
  const fits: MemberFit[] = [];
  const reach: Record<string, WindowReach> = {};
  const members = spec.members.map((m) => {
    if (m.family !== 'mlp') return m;
    const r = windowReach(seqs, m.window);
    reach[m.id] = r;
    if (r.covers && m.window >= least) return m;
    const short = r.covers ? wholePromptShortfall(m.id, r) : windowShortfall(m.id, r);
    const wider = narrowestCover(seqs, Math.max(m.window + 1, least), MOST_WINDOW);
    if (wider) {
      fits.push({
        memberId: m.id,
        from: { window: m.window },
        to: { window: wider.window },
        why: `${short}; reading ${wider.window} it can write ${percent(wider.ceiling)}, so ${m.id} reads ${wider.window}`,
      });
      return { ...m, window: wider.window };
    }
    const t = asTransformer(m);
    fits.push({
      memberId: m.id,
      from: { family: m.family, dModel: m.dModel, layers: m.layers, window: m.window, warmStartSteps: m.warmStartSteps },
      to: { family: t.family, dModel: t.dModel, layers: t.layers, heads: t.heads, warmStartSteps: t.warmStartSteps },
      why:
        `${short}; ${least > MOST_WINDOW ? `the widest window (${MOST_WINDOW}) is shorter than that` : `even the widest window (${MOST_WINDOW}) writes at most ${percent(windowReach(seqs, MOST_WINDOW, r.full).ceiling)}`}, ` +
        `so ${m.id} is a transformer (width ${t.dModel}, ${t.layers} blocks), which reads the whole sequence, warm-started for up to ${t.warmStartSteps} steps`,
    });
    return t;
  });
  return { spec: fits.length ? { ...spec, members } : spec, fits, reach };
}

/**
 * The narrowest window the sample can vouch for. A generator's problems are drawn by the
 * thousand, so the ceilings show which characters its completions depend on. A data file's rows
 * are few and each prompt is seen once: a short window's contexts rarely repeat, so its ceiling
 * looks perfect on the rows whatever it misses. There the window must see the whole prompt when
 * the member writes its first character (and the '>' before an answer written without working).
 */
export function leastWindow(spec: ExperimentSpec, seqs: TaskSequences): number {
  const def = spec.task.definition;
  if (def?.kind !== 'data') return 1;
  const working = def.rows.some((r) => !!r.scratchpad) && spec.task.scratchpad !== 'never';
  return seqs.promptTokens - 1 + (working ? 0 : 1);
}

/** The sentence for a data file's window that does not see the whole prompt. */
function wholePromptShortfall(id: string, r: WindowReach): string {
  return (
    `member ${id} reads the last ${r.window} characters, and the prompts have up to ${r.promptChars}: ` +
    `${r.problems} rows are too few to show which characters the answers depend on, so it must see the whole prompt`
  );
}

// ---- after a miss: a larger member, within a budget ------------------------------------------------

/** The widest member and the longest warm start the lab picks on its own after a miss. */
export const FIT_LIMITS = Object.freeze({ width: 128, steps: 800 });

/** A miss as the page hears it: which member, and the cause measured (missCause.ts). */
export interface MeasuredMiss {
  memberId: string;
  cause: 'window' | 'underfit' | 'few-rows' | 'no-rule' | 'partial';
}

/**
 * The member the lab tries next after a measured miss, or null when no member can answer the
 * cause (too few rows, answers that do not follow: a model changes neither) or the member is
 * already at FIT_LIMITS. Pure and deterministic, so a link of the refitted experiment reproduces
 * it: a window that cannot see gets the narrowest that can (fitMembers); a member that did not
 * learn even its training rows gets twice the width (then twice the steps); one that learnt them
 * and does better than chance on the rest, twice the steps (then twice the width).
 */
export function refitAfterMiss(spec: ExperimentSpec, miss: MeasuredMiss): { spec: ExperimentSpec; fit: MemberFit } | null {
  const m = spec.members.find((x) => x.id === miss.memberId);
  if (!m) return null;
  if (miss.cause === 'window') {
    const one = fitMembers({ ...spec, members: [m] });
    const fit = one.fits[0];
    return fit ? { spec: { ...spec, members: spec.members.map((x) => (x.id === m.id ? one.spec.members[0] : x)) }, fit } : null;
  }
  if (miss.cause !== 'underfit' && miss.cause !== 'partial') return null;
  const wider = m.dModel < FIT_LIMITS.width ? { dModel: Math.min(FIT_LIMITS.width, 2 * m.dModel) } : null;
  const longer = m.warmStartSteps < FIT_LIMITS.steps ? { warmStartSteps: Math.min(FIT_LIMITS.steps, 2 * m.warmStartSteps) } : null;
  const change = miss.cause === 'underfit' ? (wider ?? longer) : (longer ?? wider);
  if (!change) return null;
  const before = 'dModel' in change ? { dModel: m.dModel } : { warmStartSteps: m.warmStartSteps };
  const what = 'dModel' in change ? `width ${change.dModel} instead of ${m.dModel}` : `${change.warmStartSteps} warm-start steps instead of ${m.warmStartSteps}`;
  const because = miss.cause === 'underfit' ? 'it did not learn even the rows it trained on' : 'it learnt its rows and did better than chance on the rest, but not up to its target';
  return {
    spec: { ...spec, members: spec.members.map((x) => (x.id === m.id ? { ...x, ...change } : x)) },
    fit: { memberId: m.id, from: before, to: change, why: `member ${m.id} missed its warm-start target: ${because}, so the lab tries it with ${what}` },
  };
}
