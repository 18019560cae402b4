import type { ReactNode } from 'react';
import { ErrorBoundary } from '../ErrorBoundary';

/** A titled panel with a short explanation for students; a failure inside it stays inside it. */
export function Panel(props: { id: string; title: string; intro: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <section className={`panel${props.wide ? ' panel-wide' : ''}`} aria-labelledby={`${props.id}-title`} data-testid={`panel-${props.id}`}>
      <h2 id={`${props.id}-title`}>{props.title}</h2>
      <div className="panel-intro">{props.intro}</div>
      <ErrorBoundary where={props.title}>{props.children}</ErrorBoundary>
    </section>
  );
}
