/**
 * Predict, then reveal, on the projector: the question the class answers first, and the button
 * that draws the preset's measured reference run (dashed) behind the class's curves. Hidden until
 * the presenter reveals it (reference/referenceStore.ts); the same store as the page's reference
 * bar, so a reveal here is a reveal there.
 */
import { referenceLabel, seedsText } from '../../share/reference';
import { referenceRevealed, setShowReference, useReference } from '../reference/referenceStore';
import { revealQuestion } from '../reference/reveal';

export function ProjectorReveal() {
  const status = useReference((s) => s.status);
  const shown = useReference((s) => status.kind === 'ready' && referenceRevealed(s, status.presetId));
  // Nothing to reveal (no reference shipped, an edited experiment, still loading): an empty marker.
  if (status.kind !== 'ready') return <span hidden data-testid="projector-reveal" data-status={status.kind} />;
  const ref = status.reference;
  return (
    <section className="panel projector-reveal" aria-label="Predict, then reveal" data-testid="projector-reveal" data-status="ready" data-revealed={shown ? 'yes' : 'no'}>
      {shown ? (
        <p>
          Dashed: the measured reference run ({referenceLabel(ref)}, {seedsText(ref.seeds)}).{' '}
          <button type="button" className="link" data-testid="projector-reveal-hide" onClick={() => setShowReference(false, status.presetId)}>
            Hide it
          </button>
        </p>
      ) : (
        <>
          <p>
            <strong>Predict first.</strong> {revealQuestion(status.presetId)}
          </p>
          <button type="button" data-testid="projector-reveal-button" onClick={() => setShowReference(true, status.presetId)}>
            Reveal the reference run
          </button>
        </>
      )}
    </section>
  );
}
