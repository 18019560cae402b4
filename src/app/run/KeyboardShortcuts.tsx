/**
 * The keyboard shortcuts (shortcuts.ts): one window listener that starts, pauses, resumes and
 * steps the run as the run bar's buttons would, and the "?" dialog that lists them (a native
 * modal <dialog>: focus stays inside, Escape closes it). The header's "Shortcuts" button opens it too.
 */
import { useEffect, useRef, useState } from 'react';
import { validationOf } from '../controls/validation';
import { useLab } from '../store';
import { lab } from '../trainingWorker';
import { SHORTCUTS, runActionFor, shortcutFor } from './shortcuts';
import { startBlockReason } from '../store/classroomSlice';

function targetOf(t: EventTarget | null) {
  if (!(t instanceof HTMLElement)) return null;
  return { tagName: t.tagName, isContentEditable: t.isContentEditable, role: t.getAttribute('role') };
}

export function KeyboardShortcuts() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const shortcut = shortcutFor({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target: targetOf(e.target), dialogOpen: dialog.current?.open ?? false });
      if (!shortcut) return;
      e.preventDefault();
      if (shortcut === 'help') {
        setOpen(true);
        return;
      }
      const s = useLab.getState();
      // Start needs what the Start button needs: a valid draft and, in workshop mode, a prediction.
      const action = runActionFor(shortcut, s.run, validationOf(s.draft).ok && startBlockReason(s) === null, s.classroom.hidden);
      if (action) lab[action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);

  return (
    <>
      <button type="button" data-testid="shortcuts-button" aria-haspopup="dialog" title="Keyboard shortcuts (?)" onClick={() => setOpen(true)}>
        Shortcuts
      </button>
      <dialog ref={dialog} className="shortcuts-dialog" aria-labelledby="shortcuts-title" data-testid="shortcuts-dialog" onClose={() => setOpen(false)}>
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">What it does</th>
            </tr>
          </thead>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                  {s.label !== s.keys && <span className="sr-only"> ({s.label})</span>}
                </th>
                <td>{s.what}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="sub">Shortcuts are ignored while you type in a field, and Space leaves a focused button to the button.</p>
        <form method="dialog">
          <button type="submit" data-testid="shortcuts-close" autoFocus>
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
