/**
 * The workshop card, above the run bar in workshop mode: the step (previous / next), its title
 * and set-up, the "predict first" question (Start waits for an answer: classroomSlice's
 * startBlockReason), then the prediction next to what this run measured, and the talking point:
 * what the preset's seeds measured, shown when the run is done or when the presenter asks for it.
 */
import './workshop.css';
import { useMemo } from 'react';
import { otherTask } from '../controls/presetTask';
import { useLab } from '../store';
import { type Direction, WORKSHOP, type WorkshopStep, directionOf, readRun, seedsMeasured, signed } from './sequence';
import { workshop } from './actions';
import { PRESETS } from '../../core/experiment/presets';
import { setShowReference } from '../reference/referenceStore';

const DIRECTIONS: readonly Direction[] = ['up', 'level', 'down'];

export function WorkshopPanel() {
  const w = useLab((s) => s.classroom.workshop);
  const presetId = useLab((s) => s.presetId);
  const phase = useLab((s) => s.run.phase);
  const predict = useLab((s) => s.predict);
  const revealMeasured = useLab((s) => s.revealMeasured);
  const task = useLab((s) => s.draft.task);
  // Another task than the step's preset asks: its measured numbers are about another question.
  const other = useMemo(() => otherTask(task, presetId), [task, presetId]);
  if (!w) return null;
  const step = WORKSHOP[w.step - 1];
  // The seeds' talking point and the reference run's dashed curves are revealed together.
  const reveal = () => {
    revealMeasured();
    setShowReference(true, step.presetId);
  };
  const locked = phase !== 'idle';
  const revealed = w.revealed || phase === 'done';
  return (
    <section className="workshop" aria-labelledby="workshop-title" data-testid="workshop" data-step={w.step}>
      <nav className="workshop-nav" aria-label="Workshop steps">
        <button type="button" data-testid="workshop-prev" disabled={w.step === 1} onClick={() => workshop.goTo(w.step - 1)}>
          ← Previous
        </button>
        <span className="workshop-progress" data-testid="workshop-progress">
          Step {w.step} of {WORKSHOP.length}
        </span>
        <button type="button" data-testid="workshop-next" disabled={w.step === WORKSHOP.length} onClick={() => workshop.goTo(w.step + 1)}>
          Next →
        </button>
      </nav>
      <h2 id="workshop-title" data-testid="workshop-title">
        {step.title}
      </h2>
      {/* Once a run is on screen the set-up folds and the answer comes first, so the reveal sits
          beside the charts on a projector's first screen. */}
      {locked ? (
        <details className="workshop-setup-fold">
          <summary>The set-up</summary>
          <p className="workshop-setup" data-testid="workshop-setup">
            {step.setup}
          </p>
        </details>
      ) : (
        <p className="workshop-setup" data-testid="workshop-setup">
          {step.setup}
        </p>
      )}
      {locked && w.prediction && <Outcome step={step} prediction={w.prediction} revealed={revealed} />}
      {locked && <Measured step={step} revealed={revealed} canReveal={w.prediction != null} onReveal={reveal} />}
      {(presetId !== step.presetId || other) && (
        <p className="notice notice-warn" data-testid="workshop-off-preset">
          {presetId !== step.presetId
            ? `The experiment is no longer this step's preset (${PRESETS[step.presetId]?.title ?? step.presetId}), so what it shows may differ from what was measured.`
            : `The experiment asks another question ("${other!.title}") than this step's preset, so what was measured does not apply to it.`}{' '}
          <button type="button" className="link" onClick={() => workshop.reloadStepPreset()}>
            Load the step's preset
          </button>
        </p>
      )}
      <fieldset className="workshop-predict" data-testid="workshop-predict" disabled={locked}>
        <legend>
          <strong>Predict first.</strong> {step.question}
        </legend>
        <div className="workshop-choices">
          {DIRECTIONS.map((d) => (
            <label key={d} className={w.prediction === d ? 'chosen' : undefined}>
              <input type="radio" name="workshop-prediction" value={d} checked={w.prediction === d} data-testid={`predict-${d}`} onChange={() => predict(d)} />
              {step.answers[d]}
            </label>
          ))}
        </div>
        {locked && w.prediction && <p className="sub">The prediction is locked while this run is on screen (Reset to predict again).</p>}
      </fieldset>
      {!locked && <Measured step={step} revealed={revealed} canReveal={w.prediction != null} onReveal={reveal} />}
    </section>
  );
}

/** The talking point once revealed, else the button that reveals it. */
function Measured({ step, revealed, canReveal, onReveal }: { step: WorkshopStep; revealed: boolean; canReveal: boolean; onReveal: () => void }) {
  return (
    <div className="workshop-measured">
      {revealed ? (
        <div data-testid="workshop-talking-point">
          <p>{step.talkingPoint}</p>
          <MeasuredTable step={step} />
        </div>
      ) : (
        <button type="button" data-testid="workshop-reveal" disabled={!canReveal} title={canReveal ? 'Show it before the run ends' : 'Predict first'} onClick={onReveal}>
          Show what {seedsMeasured(step)} measured
        </button>
      )}
    </div>
  );
}

/** The prediction next to what this run measured (so far, or at its end), and the 8-seed answer once shown. */
function Outcome({ step, prediction, revealed }: { step: WorkshopStep; prediction: Direction; revealed: boolean }) {
  const summary = useLab((s) => s.run.summary);
  const done = useLab((s) => s.run.phase === 'done');
  const seed = useLab((s) => s.run.spec?.seed);
  // The summary grows in place; the version says when.
  useLab((s) => s.run.version);
  const reading = readRun(step.quantity, summary);
  const measured = directionOf(step.measured);
  return (
    <dl className="workshop-outcome" data-testid="workshop-outcome">
      <div>
        <dt>Your prediction</dt>
        <dd data-testid="outcome-prediction">{step.answers[prediction]}</dd>
      </div>
      <div>
        <dt>
          {done ? 'This run' : 'This run so far'}
          {seed !== undefined && ` (seed ${seed})`}
        </dt>
        <dd data-testid="outcome-run" data-direction={reading.ok ? reading.direction : ''}>
          {reading.ok ? (
            <>
              <strong>{step.answers[reading.direction]}</strong> · {reading.detail}
              {done && (
                <span className="workshop-verdict" data-testid="outcome-verdict">
                  {reading.direction === prediction ? 'As predicted.' : 'Not what was predicted.'}
                </span>
              )}
            </>
          ) : (
            <span className="sub">{reading.why}</span>
          )}
        </dd>
      </div>
      {revealed && (
        <div>
          <dt>Over {seedsMeasured(step)}</dt>
          <dd data-testid="outcome-measured">
            <strong>{step.answers[measured]}</strong> ({signed(step.measured)} on average)
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The numbers behind a talking point: one measure a row, the tuning seeds and the fresh seeds side by side. */
function MeasuredTable({ step }: { step: WorkshopStep }) {
  const fresh = step.numbers.some((r) => r.fresh != null);
  const tuning = step.numbers.some((r) => r.tuning != null);
  return (
    <table className="workshop-numbers" data-testid="workshop-numbers">
      <caption>What was measured (changes are end − start: a fall is negative)</caption>
      <thead>
        <tr>
          <th scope="col">measure</th>
          {tuning && <th scope="col">tuning seeds ({step.seeds.tuning})</th>}
          {fresh && <th scope="col">fresh seeds ({step.seeds.fresh})</th>}
        </tr>
      </thead>
      <tbody>
        {step.numbers.map((r) => (
          <tr key={r.what}>
            <th scope="row">{r.what}</th>
            {tuning && <td>{r.tuning ?? '—'}</td>}
            {fresh && <td>{r.fresh ?? '—'}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
