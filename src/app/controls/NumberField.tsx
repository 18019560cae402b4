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
  return (
    <div className={`field${compact ? ' field-compact' : ''}`}>
      <label htmlFor={id} title={knobTitle(knob)}>
        {knob.label}
        <span className="help" aria-hidden="true">
          ?
        </span>
      </label>
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
        aria-describedby={invalid ? `${id}-problem` : undefined}
        data-testid={`field-${path}`}
        onChange={(e) => {
          setText(e.target.value);
          const v = e.target.value.trim() === '' ? Number.NaN : Number(e.target.value);
          onChange(v);
        }}
      />
      <FieldProblems path={path} id={`${id}-problem`} />
    </div>
  );
}
