/** The charts' smoothing slider (TensorBoard's debiased EMA weight, 0 to 0.99; smoothing.ts). */
import { useLab } from '../store';
import { MAX_SMOOTHING } from '../charts/smoothing';

export function SmoothingControl() {
  const smoothing = useLab((s) => s.ui.smoothing);
  const setSmoothing = useLab((s) => s.setSmoothing);
  const text = smoothing === 0 ? 'off' : smoothing.toFixed(2);
  return (
    <label className="field-inline smoothing" title="Exponential moving average of each training-step line, debiased as in TensorBoard; the raw line stays drawn faint under it. Held-out evaluations (dots) are never smoothed.">
      Smoothing
      <input
        type="range"
        min={0}
        max={MAX_SMOOTHING}
        step={0.01}
        value={smoothing}
        aria-valuetext={text}
        data-testid="smoothing"
        onChange={(e) => setSmoothing(Number(e.target.value))}
      />
      <output data-testid="smoothing-value">{text}</output>
    </label>
  );
}
