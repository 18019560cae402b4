/**
 * Classroom links: URL params that shape the page for a class, beside the experiment's own share
 * params (src/share/url.ts). They are not part of the share-link format: url.ts keeps every param
 * it does not own, so a link copied from such a page keeps them, and the format version stays.
 *
 *   ?hide=arms,grpo,speed    these controls are not rendered (HIDE_NAMES)
 *   ?workshop=1&step=2       workshop mode (src/app/workshop/), at step 2 of the sequence
 *
 * Untrusted input, read with zod and size limits; nothing here throws. Unknown control names are
 * ignored with a warning in words (as ?backend= does), shown as text, never HTML.
 */
import { z } from '../core/zod';
import { MAX_QUERY_CHARS } from './url';

export const CLASSROOM_PARAMS = { hide: 'hide', workshop: 'workshop', step: 'step' } as const;

/** The controls a classroom link can hide: the experiment panel's sections and the run bar's controls. */
export const HIDE_NAMES = ['experiment', 'preset', 'task', 'cohort', 'arms', 'grpo', 'pause', 'step', 'speed'] as const;
export type HideName = (typeof HIDE_NAMES)[number];

/** What each name hides, in the words of the page (README, tests). */
export const HIDE_LABELS: Record<HideName, string> = {
  experiment: 'the whole Experiment panel',
  preset: 'the preset menu (its description stays)',
  task: 'the "Task and run" section (task, steps, evaluation, seed, data and warm start)',
  cohort: 'the "Cohort" section (members)',
  arms: 'the "Arms" section (reward schemes)',
  grpo: 'the "GRPO" section',
  pause: 'the Pause / Resume button',
  step: 'the "Step +1" button',
  speed: 'the speed menu',
};

/** Longest hide= value read (all hide= params together); a longer one hides nothing. */
export const MAX_HIDE_CHARS = 200;
/** Most names read from hide=; the rest are ignored with a warning. */
export const MAX_HIDE_NAMES = 16;

const HideNameSchema = z.enum(HIDE_NAMES);
/** hide= as it may come: comma-separated words, within the size limit. */
const HideValueSchema = z.string().max(MAX_HIDE_CHARS);
/** step= as it may come: a whole number of 1-3 digits. */
const StepSchema = z.string().regex(/^\d{1,3}$/).transform(Number);

export interface HideResult {
  /** Known names, each once, in the order given. */
  hidden: HideName[];
  /** What was ignored and why, in words; null when nothing was. */
  warning: string | null;
}

export interface WorkshopResult {
  /** Workshop mode on, at this step (1-based, within 1..stepCount); null = off. */
  workshop: { step: number } | null;
  warning: string | null;
}

function paramsOf(search: string): URLSearchParams | null {
  const query = search.startsWith('?') ? search.slice(1) : search;
  // url.ts refuses such a link with its own message; nothing here is read from it.
  return query.length > MAX_QUERY_CHARS ? null : new URLSearchParams(query);
}

/** Untrusted text quoted for a message, cut to a readable length. */
function quote(text: string): string {
  return JSON.stringify(text.length > 24 ? `${text.slice(0, 24)}…` : text);
}

/** The controls ?hide= names. Never throws. */
export function parseHide(search: string): HideResult {
  const params = paramsOf(search);
  const values = params?.getAll(CLASSROOM_PARAMS.hide) ?? [];
  if (values.length === 0) return { hidden: [], warning: null };
  const raw = HideValueSchema.safeParse(values.join(','));
  if (!raw.success) {
    return { hidden: [], warning: `hide= is ${values.join(',').length} characters long (the limit is ${MAX_HIDE_CHARS}): nothing is hidden.` };
  }
  const words = raw.data
    .split(',')
    .map((w) => w.trim().toLowerCase())
    .filter((w) => w !== '');
  const hidden: HideName[] = [];
  const unknown: string[] = [];
  for (const word of words.slice(0, MAX_HIDE_NAMES)) {
    const name = HideNameSchema.safeParse(word);
    if (!name.success) unknown.push(quote(word));
    else if (!hidden.includes(name.data)) hidden.push(name.data);
  }
  const problems: string[] = [];
  if (unknown.length) {
    problems.push(`Unknown control${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} in hide= ignored (known: ${HIDE_NAMES.join(', ')}).`);
  }
  if (words.length > MAX_HIDE_NAMES) problems.push(`Only the first ${MAX_HIDE_NAMES} of the ${words.length} names in hide= were read.`);
  return { hidden, warning: problems.length ? problems.join(' ') : null };
}

/** Workshop mode from ?workshop=1&step=N, for a sequence of `stepCount` steps. Never throws. */
export function parseWorkshop(search: string, stepCount: number): WorkshopResult {
  const params = paramsOf(search);
  const flag = params?.get(CLASSROOM_PARAMS.workshop) ?? null;
  if (flag === null || flag === '0' || flag === '') return { workshop: null, warning: null };
  if (flag !== '1') return { workshop: null, warning: `workshop=${quote(flag)} is not 1: workshop mode is off.` };
  const rawStep = params?.get(CLASSROOM_PARAMS.step) ?? null;
  if (rawStep === null) return { workshop: { step: 1 }, warning: null };
  const parsed = StepSchema.safeParse(rawStep);
  if (!parsed.success) return { workshop: { step: 1 }, warning: `step=${quote(rawStep)} is not a step number (1-${stepCount}): showing step 1.` };
  const step = Math.min(stepCount, Math.max(1, parsed.data));
  if (step !== parsed.data) return { workshop: { step }, warning: `step=${parsed.data} is not a step of this workshop (1-${stepCount}): showing step ${step}.` };
  return { workshop: { step }, warning: null };
}

/** `currentSearch` with workshop=1&step=N set (null: both removed); every other param kept in place. */
export function workshopSearch(currentSearch: string, workshop: { step: number } | null): string {
  const params = new URLSearchParams(currentSearch);
  if (workshop) {
    params.set(CLASSROOM_PARAMS.workshop, '1');
    params.set(CLASSROOM_PARAMS.step, String(workshop.step));
  } else {
    params.delete(CLASSROOM_PARAMS.workshop);
    params.delete(CLASSROOM_PARAMS.step);
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}
