/**
 * After Start, the keyboard's focus goes to Pause: the Start pressed is
 * disabled (run bar) or gone (the hero's), and a focused element that becomes disabled or leaves
 * the page drops the focus to the body, so a keyboard user had to Tab from the top again.
 */
export function focusPauseSoon(): void {
  // After React has drawn the running state (Pause is enabled from the first render of it).
  requestAnimationFrame(() => requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('[data-testid="pause"]:not(:disabled)')?.focus()));
}
