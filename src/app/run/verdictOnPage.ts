/**
 * The verdict the page shows, read from the store without React: the block of seeds that has ended
 * (an own task's Start, "Run N seeds", a run file of several runs), by the core's rule
 * (core/experiment/verdict.ts). VerdictPanel.tsx draws it; the exports carry its sentence (the run
 * file carries the runs themselves, and the sentence is read from them again when it is opened).
 */
import type { RunSummary } from '../../core/experiment/events';
import { friendSentence, questionVerdict, type QuestionVerdict } from '../../core/experiment/verdict';
import type { ExperimentSpec } from '../../core/experiment/spec';
import type { LabState } from '../store/types';
import type { SeedResult } from '../store/seedsSlice';

/** The verdict of finished seeds' results (a running one, or one without a summary, is not read). */
export function verdictOfResults(spec: ExperimentSpec, results: readonly SeedResult[], causes: readonly string[]): QuestionVerdict {
  const runs = results.filter((r) => r.finished && r.summary).map((r) => r.summary as RunSummary);
  return questionVerdict(spec, runs, causes);
}

/** The page's verdict over its block of seeds once the block has ended; null while one trains or when there is none. */
export function pageVerdict(s: Pick<LabState, 'seeds' | 'run' | 'draft'>): QuestionVerdict | null {
  const { plan, results, stopped } = s.seeds;
  if (plan) return null;
  const spec = results[0]?.record.spec ?? s.run.spec;
  if (!spec) return null;
  if (results.length === 0 && !(stopped && s.draft.task.id === 'custom')) return null;
  return verdictOfResults(spec, results, stopped ? [stopped] : []);
}

/** The sentence for a friend the exports carry (null: no verdict on the page). */
export function pageVerdictSentence(s: Pick<LabState, 'seeds' | 'run' | 'draft'>): string | null {
  const v = pageVerdict(s);
  return v ? friendSentence(v) : null;
}

/**
 * A CSV with the verdict's sentence as a first line starting with '#' (a comment to spreadsheets'
 * and pandas' readers: read_csv(..., comment='#')); unchanged without one.
 */
export function withVerdictLine(csv: string, sentence: string | null): string {
  return sentence ? `# ${sentence.replace(/[\r\n]+/g, ' ')}\n${csv}` : csv;
}
