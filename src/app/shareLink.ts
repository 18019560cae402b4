/**
 * The page's side of share links (the codec is src/share/url.ts): on load, the experiment the URL
 * names goes into the spec slice, and a bad link becomes a notice while the default preset stays;
 * after that the URL follows the draft, written with history.replaceState (Sequence Toy's URLs:
 * no history entry per keystroke) a moment after the last edit. The URL only ever holds a valid
 * spec: while the draft has a problem, it keeps the last valid one.
 */
import type { TaskDefinition } from '../core/tasks/custom/index';
import { MAX_QUERY_CHARS, decodeShare, linkTaskDefinitions, shareSearch } from '../share/url';
import { checkTasksOffThread } from './taskCheck';
import { validationOf } from './controls/validation';
import { useLab } from './store';

/** Where the URL is read and written: the browser's location by default, a fake in tests. */
export interface UrlPort {
  read(): string;
  write(search: string): void;
}

export const browserUrl: UrlPort = {
  read: () => window.location.search,
  write: (search) => window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}${window.location.hash}`),
};

/** Quiet time after an edit before the URL is rewritten. */
export const URL_WRITE_DELAY_MS = 250;

/** Load the experiment the URL names (if any) into the store. Never throws. */
export function loadSharedExperiment(url: UrlPort = browserUrl): void {
  const result = decodeShare(url.read());
  const lab = useLab.getState();
  if (result.kind === 'error') {
    lab.setLinkNotice({ kind: 'error', message: `${result.message} Showing the default experiment instead.` });
  } else if (result.kind === 'ok') {
    lab.loadSpec(result.presetId, result.spec, result.edited);
    lab.setLinkNotice(result.warnings.length ? { kind: 'warning', message: result.warnings.join(' ') } : null);
  }
}

/**
 * Why the draft cannot travel in a link, in words, or null when it can: a task of one's own with
 * too many data rows makes a link longer than any copy of the lab reads (MAX_QUERY_CHARS).
 */
export function draftLinkProblem(url: UrlPort = browserUrl): string | null {
  const { presetId, draft } = useLab.getState();
  const valid = validationOf(draft);
  if (!valid.ok) return null;
  const chars = shareSearch(url.read(), presetId, valid.spec).length - 1;
  if (chars <= MAX_QUERY_CHARS) return null;
  return (
    `This experiment does not fit in a link: its task's data would make it ${chars.toLocaleString('en')} characters long, and a link may have ${MAX_QUERY_CHARS.toLocaleString('en')}. ` +
    'Share a run file instead (Export, then Run file): it holds the task, and "Open run file…" opens it.'
  );
}

/** Write the draft into the URL now. False (URL untouched) while the draft is invalid or too long for a link. */
export function writeDraftToUrl(url: UrlPort = browserUrl): boolean {
  const { presetId, draft } = useLab.getState();
  const valid = validationOf(draft);
  if (!valid.ok) return false;
  const search = shareSearch(url.read(), presetId, valid.spec);
  if (search.length - 1 > MAX_QUERY_CHARS) return false;
  if (search !== url.read()) url.write(search);
  return true;
}

let pending: ReturnType<typeof setTimeout> | null = null;
let port: UrlPort = browserUrl;

function cancelPending(): void {
  if (pending !== null) clearTimeout(pending);
  pending = null;
}

/** Write a pending edit now (Copy link). False while the draft is invalid. */
export function flushDraftToUrl(): boolean {
  cancelPending();
  return writeDraftToUrl(port);
}

/**
 * Load the URL's experiment, then keep the URL in step with the draft. Returns the cleanup (React
 * effect). A link with a task of its own has the task checked in a worker first, so a costly task
 * never holds the page while the link loads (the default experiment shows meanwhile).
 */
export function startShareLinks(url: UrlPort = browserUrl, delayMs = URL_WRITE_DELAY_MS): () => void {
  port = url;
  let stopped = false;
  let unsubscribe = () => {};
  const follow = () => {
    if (stopped) return;
    loadSharedExperiment(url);
    unsubscribe = useLab.subscribe((s, prev) => {
      if (s.draft === prev.draft && s.presetId === prev.presetId) return;
      cancelPending();
      pending = setTimeout(() => {
        pending = null;
        writeDraftToUrl(url);
      }, delayMs);
    });
  };
  const tasks = linkTaskDefinitions(url.read());
  if (tasks.length === 0 || typeof Worker === 'undefined') follow();
  else void checkTasksOffThread(tasks as TaskDefinition[]).then(follow);
  return () => {
    stopped = true;
    unsubscribe();
    cancelPending();
  };
}
