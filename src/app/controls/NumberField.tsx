import { useEffect, useId, useState } from 'react';
import { type Knob, knobTitle } from '../lib/knobs';
import { problemsExactly } from '../store/specEdits';
import { FieldProblems } from './FieldProblems';
import { useDraftValidation } from './validation';

/**
 * A number input bound to one spec field. It keeps the text the user types (so "0." or an empty
 * box survive a re-render) and writes a number, or NaN for text that is not one, so the problem
 * is explained next to the field instead of the value silently snapping back.
 */
export function NumberField({ knob, path, value, onChange, compact }: { knob: Knob; path: string; value: number; onChange: (v: number) => void; compact?: boolean }) {
  const id = useId();
  const [text, setText] = useState(Number.isNaN(value) ? '' : String(value));
  useEffect(() => {
    // Follow outside changes (a preset), but not while the text already means this value.
    if (Number(text) !== value && !(text === '' && Number.isNaN(value))) setText(Number.isNaN(value) ? '' : String(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on outside changes only: with `text` every keystroke would be reset
  }, [value]);
  const { problems } = useDraftValidation();
  const invalid = problemsExactly(problems, path).length > 0;
  // The help was a hover-only tooltip: now a "?" button shows it (touch, keyboard), and the input
  // is described by it for screen readers.
  const [helpOpen, setHelpOpen] = useState(false);
  const helpId = `${id}-help`;
  return (
    <div className={`field${compact ? ' field-compact' : ''}`}>
      <span className="field-label-row">
        <label htmlFor={id} title={knobTitle(knob)}>
          {knob.label}
        </label>
        <button type="button" className="help" aria-expanded={helpOpen} aria-controls={helpId} aria-label={`What is ${knob.label}?`} onClick={() => setHelpOpen(!helpOpen)}>
          ?
        </button>
      </span>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        value={text}
        min={Number.isFinite(knob.range.min) ? knob.range.min : undefined}
        max={Number.isFinite(knob.range.max) ? knob.range.max : undefined}
        step={knob.step}
        title={knobTitle(knob)}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${helpId} ${id}-problem` : helpId}
        data-testid={`field-${path}`}
        onChange={(e) => {
          setText(e.target.value);
          const v = e.target.value.trim() === '' ? Number.NaN : Number(e.target.value);
          onChange(v);
        }}
      />
      <span id={helpId} className={helpOpen ? 'field-help' : 'sr-only'}>
        {knobTitle(knob)}
      </span>
      <FieldProblems path={path} id={`${id}-problem`} />
    </div>
  );
}
