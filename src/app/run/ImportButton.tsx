/**
 * Opening a run file, in the run bar: a file picker button, and a .json file dropped anywhere on
 * the page (a hint covers the page while a file is dragged over it). What happens next (the
 * problem in words, or Show / Overlay) is in ImportNotices.tsx; the logic in importRun.ts.
 */
import { useEffect, useRef, useState } from 'react';
import { openRunFile } from './importRun';

const hasFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');

export function ImportButton() {
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => {
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault(); // allows the drop
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (e: DragEvent) => {
      // relatedTarget is null when the drag leaves the window.
      if (e.relatedTarget === null) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      setDragging(false);
      if (!hasFiles(e)) return;
      e.preventDefault(); // or the browser opens the file in place of the lab
      const file = e.dataTransfer?.files[0];
      if (file) void openRunFile(file);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <>
      <button type="button" data-testid="import-run" title="Open a run file saved with Export (or drop it anywhere on the page)" onClick={() => input.current?.click()}>
        Open run file…
      </button>
      <input
        ref={input}
        type="file"
        accept=".json,application/json"
        hidden
        aria-label="Run file to open"
        data-testid="import-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // Cleared, so the same file can be chosen again.
          e.target.value = '';
          if (file) void openRunFile(file);
        }}
      />
      {dragging && (
        <div className="drop-hint" aria-hidden="true" data-testid="drop-hint">
          Drop a run file (.json) to open it
        </div>
      )}
    </>
  );
}
