/** Unfold a detail panel and bring it into view (the hero view's links, glossary terms). */
import { useLab } from '../store';

export function openPanel(id: string, focusId?: string): void {
  useLab.getState().setPanelOpen(id, true);
  // After React has unfolded it.
  requestAnimationFrame(() => {
    const target = document.getElementById(focusId ?? `${id}-title`) ?? document.getElementById(`panel-${id}`);
    if (!target) return;
    target.scrollIntoView({ block: 'start', behavior: 'auto' });
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  });
}
