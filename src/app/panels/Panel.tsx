import type { ReactNode } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';
import { useLab } from '../store';
import { isPanelOpen } from '../store/uiSlice';

/**
 * A titled panel with a short explanation for students; a failure inside it stays inside it. Its
 * title folds and unfolds it (the panels a student does not need first start folded;
 * uiSlice.ts FOLDED_BY_DEFAULT). A folded panel keeps its content mounted but hidden, so its
 * charts stay current without drawing (redrawScheduler.ts draws them when they come into view).
 */
export function Panel(props: { id: string; title: string; intro: ReactNode; children: ReactNode; wide?: boolean; className?: string }) {
  const open = useLab((s) => isPanelOpen(s.ui, props.id));
  const setPanelOpen = useLab((s) => s.setPanelOpen);
  const bodyId = `${props.id}-body`;
  return (
    <section
      className={`panel${props.wide ? ' panel-wide' : ''}${props.className ? ` ${props.className}` : ''}${open ? '' : ' folded'}`}
      aria-labelledby={`${props.id}-title`}
      data-testid={`panel-${props.id}`}
      data-open={open}
      id={`panel-${props.id}`}
    >
      <h2 id={`${props.id}-title`}>
        <button type="button" className="panel-toggle" aria-expanded={open} aria-controls={bodyId} data-testid={`toggle-${props.id}`} onClick={() => setPanelOpen(props.id, !open)}>
          <span className="fold-mark" aria-hidden="true">
            {open ? '▾' : '▸'}
          </span>
          {props.title}
        </button>
      </h2>
      <div id={bodyId} hidden={!open}>
        <div className="panel-intro">{props.intro}</div>
        <ErrorBoundary where={props.title}>{props.children}</ErrorBoundary>
      </div>
    </section>
  );
}
