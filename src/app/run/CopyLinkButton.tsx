import { useEffect, useRef, useState } from 'react';
import { draftLinkProblem, flushDraftToUrl } from '../shareLink';
import { isLoopbackHost } from '../room/roomLink';

type CopyState = { kind: 'idle' } | { kind: 'copied'; note: string } | { kind: 'manual'; url: string } | { kind: 'too-long'; why: string };

/** Clipboard writes can wait on a permission prompt forever: give up after this and show the link. */
const CLIPBOARD_TIMEOUT_MS = 1500;

async function writeClipboard(text: string): Promise<void> {
  if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
  await Promise.race([
    navigator.clipboard.writeText(text),
    new Promise((_, reject) => setTimeout(() => reject(new Error('clipboard timeout')), CLIPBOARD_TIMEOUT_MS)),
  ]);
}

/**
 * Copies the page's URL (which holds the experiment); without a clipboard, shows it to copy by hand.
 * The link is the page's own address, so on a web host it is the hosted one; on this computer
 * (`npm start`, 127.0.0.1) it opens only here, and the note says how to share it instead.
 */
export function CopyLinkButton() {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (state.kind === 'manual') input.current?.select();
    if (state.kind !== 'copied') return;
    const t = setTimeout(() => setState({ kind: 'idle' }), 2500);
    return () => clearTimeout(t);
  }, [state]);

  async function copy() {
    const tooLong = draftLinkProblem();
    if (tooLong) return setState({ kind: 'too-long', why: tooLong });
    const current = flushDraftToUrl();
    const url = window.location.href;
    const note = current ? 'Link copied' : 'Link copied: it holds the last valid version of the experiment (fix the marked fields to include the latest edits)';
    try {
      await writeClipboard(url);
      setState({ kind: 'copied', note });
    } catch {
      setState({ kind: 'manual', url });
    }
  }

  return (
    <span className="copy-link">
      <button type="button" data-testid="copy-link" title="Copy a link that opens this experiment, as it is now" onClick={() => void copy()}>
        Copy link
      </button>
      {state.kind === 'copied' && (
        <span role="status" className="copy-link-note" data-testid="copy-link-status">
          {state.note}
        </span>
      )}
      {(state.kind === 'copied' || state.kind === 'manual') && isLoopbackHost(window.location.hostname) && (
        <span className="copy-link-note" data-testid="copy-link-local">
          It names this computer ({window.location.host}), so it opens only here: to share it, put the lab online (docs/LAB.md).
        </span>
      )}
      {state.kind === 'too-long' && (
        <span role="alert" className="copy-link-note" data-testid="copy-link-too-long">
          {state.why}{' '}
          <button type="button" className="link" onClick={() => setState({ kind: 'idle' })}>
            Close
          </button>
        </span>
      )}
      {state.kind === 'manual' && (
        <label className="copy-link-manual">
          <span>Copy this link:</span>
          <input ref={input} type="text" readOnly value={state.url} data-testid="copy-link-fallback" onFocus={(e) => e.target.select()} />
          <button type="button" className="link" onClick={() => setState({ kind: 'idle' })}>
            Close
          </button>
        </label>
      )}
    </span>
  );
}
