/**
 * "Run N seeds": the experiment trained once per seed, spec.seed, spec.seed + 1, ..., one after
 * another through the one training worker (one lab.start per seed; the next starts when the
 * previous is done). Pause pauses the seed training now; Reset (lab.reset) cancels the rest and
 * clears the results; a seed that stops or fails ends the sequence, keeping the seeds finished.
 * Each finished seed's RunRecord (liveRecord.ts) goes to the seeds slice (store/seedsSlice.ts).
 * Start on a task of one's own is such a sequence too (startDraft).
 */
import { VERDICT_SEEDS } from '../core/experiment/verdict';
import { validationOf } from './controls/validation';
import { useLab } from './store';
import { recordOf } from './store/liveRecord';
import { clampSeeds } from './store/seedsSlice';
import { lab } from './trainingWorker';
import { nextFit, resetFitTries } from './run/autoFit';

/** Seeds are 31-bit (spec.ts): past the top they wrap to 0. */
const SEED_LIMIT = 2 ** 31;

function startNext(): boolean {
  const s = useLab.getState();
  const plan = s.seeds.plan;
  if (!plan) return false;
  const index = s.seeds.results.length;
  if (index >= plan.count) {
    s.endSeeds();
    return false;
  }
  // runId 0 while starting: the watcher below ignores the run change lab.start makes.
  s.seedStarted(index, 0);
  if (!lab.start({ seed: (plan.firstSeed + index) % SEED_LIMIT })) {
    useLab.getState().endSeeds();
    return false;
  }
  useLab.getState().seedStarted(index, useLab.getState().run.runId);
  return true;
}

let watching = false;

/** Follow the run of the seed training now: keep it when done, then start the next. */
function watch(): void {
  if (watching) return;
  watching = true;
  useLab.subscribe((s, prev) => {
    const plan = s.seeds.plan;
    if (!plan || plan.runId === 0) return;
    if (s.run.runId !== plan.runId) {
      // The page moved on to another run (opened, resumed): the sequence is over.
      s.endSeeds();
      return;
    }
    if (s.run.phase === prev.run.phase && prev.run.runId === plan.runId) return;
    if (s.run.phase === 'done') {
      const shown = recordOf(plan.runId);
      if (shown) s.addSeedResult(structuredClone(shown.record));
      // Not from inside the store's notification: the next Start sets state again.
      setTimeout(startNext, 0);
    } else if (s.run.phase === 'error') {
      // The first seed's warm start is the block's learnability check: a measured miss a member
      // can answer starts the block again with that member (run/autoFit.ts), within its budget.
      const miss = s.run.error?.miss;
      const next = miss && s.seeds.results.length === 0 ? nextFit(s.draft, miss) : null;
      if (next) {
        const count = plan.count;
        setTimeout(() => {
          const now = useLab.getState();
          now.setFitNotes([...now.ui.fitNotes, next.note]);
          now.editDraft(() => next.spec);
          seedRuns.start(count, { fitting: true });
        }, 0);
        return;
      }
      // The error's sentence (a warm start's miss says what it measured and what helps); its hint is the page's, for the button beside it.
      s.endSeeds(s.run.error?.message ?? 'a seed stopped with an error');
    } else if (s.run.phase === 'stopped') {
      s.endSeeds();
    }
  });
}

export const seedRuns = {
  /**
   * Start, as the run bar's Start does: a task of one's own trains its block of VERDICT_SEEDS seeds
   * (its verdict over seeds is what the lab says about the question: core/experiment/verdict.ts),
   * anything else one run.
   */
  startDraft(): boolean {
    const s = useLab.getState();
    if (s.draft.task.id === 'custom') return seedRuns.start(VERDICT_SEEDS);
    return lab.start();
  },
  /** Run the draft over `count` seeds (2-8); false when the draft cannot start. */
  start(count: number, opts: { fitting?: boolean } = {}): boolean {
    const s = useLab.getState();
    const v = validationOf(s.draft);
    if (!v.ok) return false;
    if (!opts.fitting) {
      resetFitTries();
      if (s.ui.fitNotes.length) s.setFitNotes([]);
    }
    watch();
    s.beginSeeds(v.spec.seed, clampSeeds(count));
    return startNext();
  },
};
