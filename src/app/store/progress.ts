/**
 * Pure helpers for the status bar: warm-start progress and time left, and throughput.
 */
import type { RunnerEvent } from '../../core/experiment/events';

export type WarmEvent = Extract<RunnerEvent, { type: 'warmstart' }>;

export interface WarmProgress {
  memberId: string;
  memberIndex: number;
  memberCount: number;
  step: number;
  steps: number;
  loss: number;
  /** The member's warm-start target, if any: `steps` is then a limit, not a plan. */
  target?: number;
  /** Overall warm-start fraction done, across members, in [0, 1]. */
  fraction: number;
  /** Estimated milliseconds left, null until there is enough progress to extrapolate. */
  etaMs: number | null;
  /** When the first warm-start event arrived (ms, page clock). */
  startedAt: number;
}

/**
 * Overall fraction of the warm start done. `memberSteps` are the warm-start step counts of the
 * members in order (from the spec); members with 0 steps count as done instantly. Without them,
 * every member is assumed to take the same time.
 */
export function warmFraction(ev: WarmEvent, memberSteps?: readonly number[]): number {
  const within = ev.steps > 0 ? Math.min(1, ev.step / ev.steps) : 1;
  if (memberSteps && memberSteps.length === ev.memberCount) {
    const total = memberSteps.reduce((a, b) => a + b, 0);
    if (total > 0) {
      const before = memberSteps.slice(0, ev.memberIndex).reduce((a, b) => a + b, 0);
      return Math.min(1, (before + within * (memberSteps[ev.memberIndex] ?? 0)) / total);
    }
  }
  return ev.memberCount > 0 ? Math.min(1, (ev.memberIndex + within) / ev.memberCount) : 1;
}

export function nextWarmProgress(
  prev: WarmProgress | null,
  ev: WarmEvent,
  now: number,
  memberSteps?: readonly number[],
): WarmProgress {
  const startedAt = prev?.startedAt ?? now;
  const fraction = warmFraction(ev, memberSteps);
  const elapsed = now - startedAt;
  // Extrapolate linearly once 2% is done and a second has passed; earlier guesses jump around.
  const etaMs = fraction >= 0.02 && elapsed >= 1000 ? (elapsed * (1 - fraction)) / fraction : null;
  return {
    memberId: ev.memberId,
    memberIndex: ev.memberIndex,
    memberCount: ev.memberCount,
    step: ev.step,
    steps: ev.steps,
    loss: ev.loss,
    ...(ev.target !== undefined ? { target: ev.target } : {}),
    fraction,
    etaMs,
    startedAt,
  };
}

export interface StepCost {
  stepMs: number;
  tokens: number;
}

/** How many recent steps the throughput averages over. */
export const RATE_WINDOW = 10;

/** Steps/s and tokens/s of the engine over the recent steps (compute time, not wall time). */
export function throughput(recent: readonly StepCost[]): { stepsPerSec: number | null; tokensPerSec: number | null } {
  const ms = recent.reduce((a, r) => a + r.stepMs, 0);
  if (recent.length === 0 || ms <= 0) return { stepsPerSec: null, tokensPerSec: null };
  const tokens = recent.reduce((a, r) => a + r.tokens, 0);
  return { stepsPerSec: (1000 * recent.length) / ms, tokensPerSec: (1000 * tokens) / ms };
}

/** One member's warm-start curve: the validation value (the chance of writing a reference completion exactly) by step. */
export interface WarmCurve {
  memberId: string;
  /** The member's warm-start target, when it has one. */
  target?: number;
  /** The member's step limit. */
  steps: number;
  points: { step: number; value: number }[];
}

/** Points kept per member at most: beyond, every other one is dropped (the curve's shape stays). */
export const MAX_WARM_POINTS = 200;

/**
 * The curves with one more warm-start event folded in. Only events with a finite validation value
 * add a point; the list is new when anything changed, the same list otherwise.
 */
export function nextWarmCurves(curves: readonly WarmCurve[], ev: WarmEvent): readonly WarmCurve[] {
  if (ev.validation === undefined || !Number.isFinite(ev.validation)) return curves;
  const i = curves.findIndex((c) => c.memberId === ev.memberId);
  const prev: WarmCurve = i >= 0 ? curves[i] : { memberId: ev.memberId, steps: ev.steps, points: [], ...(ev.target !== undefined ? { target: ev.target } : {}) };
  let points = [...prev.points, { step: ev.step, value: ev.validation }];
  if (points.length > MAX_WARM_POINTS) points = points.filter((_, k) => k % 2 === 1 || k === points.length - 1);
  const next = { ...prev, points };
  return i >= 0 ? curves.map((c, k) => (k === i ? next : c)) : [...curves, next];
}

/**
 * Where the seconds between Start and the first RL step went, as the page sees them: each mark is
 * the first event of its kind after Start, in milliseconds since Start (page clock).
 *   backend  the backend was chosen (measured now, or a remembered choice reused)
 *   warm     the warm start began: models built, stored warm starts looked up
 *   base     every member warm-started and the base evaluation done
 *   step     the first RL step shown
 */
export type StartupPhase = 'backend' | 'warm' | 'base' | 'step';

export interface StartupTimeline {
  /** Milliseconds from opening the page to pressing Start (null where the page clock is not known). */
  openToStartMs: number | null;
  /** Page clock (Date.now()) when Start was pressed. */
  startedAt: number;
  marks: { phase: StartupPhase; atMs: number }[];
}

export const STARTUP_WORDS: Readonly<Record<StartupPhase, string>> = {
  backend: 'backend chosen',
  warm: 'warm start began (models built, stored warm starts looked up)',
  base: 'warm starts ready and the base evaluation done',
  step: 'first RL step shown',
};

/** The timeline with `phase` marked at `now`, unless it is marked already (the same object then). */
export function markStartup(t: StartupTimeline | null, phase: StartupPhase, now: number): StartupTimeline | null {
  if (!t || t.marks.some((m) => m.phase === phase)) return t;
  return { ...t, marks: [...t.marks, { phase, atMs: Math.max(0, now - t.startedAt) }] };
}
