/**
 * A term where it is used (pass@1, maj@G, GRPO, tau, kappa, nat ...): a button that unfolds the
 * glossary and moves the focus to its entry, for a click, a tap, the keyboard and screen readers
 * alike (hover-only tooltips reached none of the last three).
 */
import type { ReactNode } from 'react';
import { termId } from './glossaryTerms';
import { openPanel } from './hero/openPanel';

export function GlossaryTerm({ term, children }: { term: string; children?: ReactNode }) {
  const label = typeof children === 'string' ? children : term;
  return (
    <button type="button" className="term-link" aria-label={`${label}: open its glossary entry`} data-term={termId(term)} onClick={() => openPanel('glossary', termId(term))}>
      {children ?? term}
    </button>
  );
}
