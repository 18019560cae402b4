/**
 * Keyboard shortcuts, as pure functions of the key event and the run's state:
 *
 *   Space   start a run (when none is active), pause it, or resume it
 *   →       one RL step, when paused
 *   ?       the list of shortcuts (Escape closes it)
 *
 * Nothing fires with Ctrl, Alt or Meta held, while a dialog is open, or while typing in a field
 * (input, textarea, select, contenteditable); Space and → also leave buttons, links, tabs and
 * other controls alone, where the browser already gives them a meaning.
 */
import { type RunPhase, isActivePhase } from '../../engine/protocol';

export type Shortcut = 'toggle' | 'step' | 'help';
export type RunAction = 'start' | 'pause' | 'resume' | 'step';

export interface KeyTarget {
  tagName?: string;
  isContentEditable?: boolean;
  /** The element's role attribute, if any. */
  role?: string | null;
}

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
  target?: KeyTarget | null;
  /** A modal dialog is open: it owns the keyboard. */
  dialogOpen?: boolean;
}

export const SHORTCUTS: readonly { keys: string; label: string; what: string }[] = [
  { keys: 'Space', label: 'Space', what: 'Start a run, pause it, or resume it' },
  { keys: '→', label: 'Right arrow', what: 'One RL step (while paused)' },
  { keys: '?', label: 'Question mark', what: 'Show these shortcuts' },
  { keys: 'Esc', label: 'Escape', what: 'Close this list' },
];

const TEXT_ENTRY = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
const CONTROLS = new Set(['BUTTON', 'A', 'SUMMARY', 'OPTION', 'VIDEO', 'AUDIO']);
const CONTROL_ROLES = new Set(['button', 'link', 'tab', 'slider', 'checkbox', 'radio', 'switch', 'menuitem', 'option', 'spinbutton', 'textbox', 'combobox', 'listbox']);

/** Typing into a field: no shortcut at all. */
export function isTextEntry(t: KeyTarget | null | undefined): boolean {
  if (!t) return false;
  return t.isContentEditable === true || TEXT_ENTRY.has((t.tagName ?? '').toUpperCase()) || t.role === 'textbox';
}

/** A control the browser gives Space and arrows a meaning on. */
export function isControl(t: KeyTarget | null | undefined): boolean {
  if (!t) return false;
  return isTextEntry(t) || CONTROLS.has((t.tagName ?? '').toUpperCase()) || (t.role != null && CONTROL_ROLES.has(t.role));
}

export function shortcutFor(e: KeyInput): Shortcut | null {
  if (e.ctrlKey || e.metaKey || e.altKey || e.dialogOpen) return null;
  if (isTextEntry(e.target)) return null;
  if (e.key === '?') return 'help';
  if (isControl(e.target)) return null;
  if (e.key === ' ' || e.key === 'Spacebar') return 'toggle';
  if (e.key === 'ArrowRight') return 'step';
  return null;
}

export interface RunView {
  phase: RunPhase;
  paused: boolean;
  pauseRequested: boolean;
  stepRequested: boolean;
}

/**
 * What a shortcut does to the run now (null: nothing; 'help' is the caller's). `hidden`: the
 * controls a classroom link left out of the page (src/share/classroom.ts): a shortcut never does
 * what its button, hidden, could not.
 */
export function runActionFor(shortcut: Shortcut, run: RunView, canStart: boolean, hidden: readonly string[] = []): RunAction | null {
  const active = isActivePhase(run.phase);
  if (shortcut === 'toggle') {
    if (!active) return canStart ? 'start' : null;
    if (hidden.includes('pause')) return null;
    if (run.paused) return 'resume';
    return run.pauseRequested ? null : 'pause';
  }
  if (shortcut === 'step') return active && run.paused && !run.stepRequested && !hidden.includes('step') ? 'step' : null;
  return null;
}
