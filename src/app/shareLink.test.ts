import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PRESET, PRESETS } from '../core/experiment/presets';
import { decodeShare, shareSearch, toBase64Url } from '../share/url';
import { type UrlPort, flushDraftToUrl, loadSharedExperiment, startShareLinks } from './shareLink';
import { resetLab, useLab } from './store';
import { updateGrpo } from './store/specEdits';
import { backendFromUrl } from './trainingWorker';

/** An address bar in memory: what the page reads and every replaceState it did. */
function fakeUrl(search: string): UrlPort & { writes: string[] } {
  const writes: string[] = [];
  return {
    writes,
    read: () => search,
    write: (s) => {
      search = s;
      writes.push(s);
    },
  };
}

const quick = PRESETS.quick.spec;

beforeEach(() => resetLab());

describe('loadSharedExperiment', () => {
  it('loads the linked spec and selects its preset', () => {
    loadSharedExperiment(fakeUrl(shareSearch('?backend=wasm', 'quick', { ...quick, seed: 7, steps: 2 })));
    const s = useLab.getState();
    expect(s.presetId).toBe('quick');
    expect(s.edited).toBe(true);
    expect(s.draft).toEqual({ ...quick, seed: 7, steps: 2 });
    expect(s.ui.linkNotice).toBeNull();
    // A copy: editing the draft never touches what the link decoded to, nor the preset.
    expect(s.draft.members).not.toBe(quick.members);
  });

  it('an unedited preset link is not marked edited', () => {
    loadSharedExperiment(fakeUrl('?v=1&preset=quick'));
    expect(useLab.getState()).toMatchObject({ presetId: 'quick', edited: false });
  });

  it('a bad link: the error as a notice, the default preset kept', () => {
    loadSharedExperiment(fakeUrl(`?v=1&preset=quick&s=${toBase64Url('{"grpo":{"learningRate":-1}}')}`));
    const s = useLab.getState();
    expect(s.presetId).toBe(DEFAULT_PRESET);
    expect(s.edited).toBe(false);
    expect(s.ui.linkNotice?.kind).toBe('error');
    expect(s.ui.linkNotice?.message).toMatch(/^This shared link could not be loaded: the experiment is not valid: grpo\.learningRate: .* Showing the default experiment instead\.$/);
  });

  it('a link made against an older preset: loaded, with a warning', () => {
    loadSharedExperiment(fakeUrl(shareSearch('', 'quick', { ...quick, seed: 3 }).replace(/h=\w+/, 'h=old')));
    expect(useLab.getState().draft.seed).toBe(3);
    expect(useLab.getState().ui.linkNotice).toMatchObject({ kind: 'warning' });
  });

  it('a URL without a link changes nothing', () => {
    loadSharedExperiment(fakeUrl('?backend=wasm'));
    expect(useLab.getState()).toMatchObject({ presetId: DEFAULT_PRESET, edited: false, ui: { linkNotice: null } });
  });
});

describe('startShareLinks: the URL follows the draft', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes a moment after the last edit, keeping ?backend=', () => {
    const url = fakeUrl('?backend=wasm');
    const stop = startShareLinks(url, 250);
    expect(url.writes).toEqual([]); // opening the page rewrites nothing
    useLab.getState().choosePreset('quick');
    useLab.getState().editDraft((d) => ({ ...d, seed: 5 }));
    vi.advanceTimersByTime(200);
    useLab.getState().editDraft((d) => updateGrpo(d, { learningRate: 0.002 }));
    vi.advanceTimersByTime(200);
    expect(url.writes).toEqual([]);
    vi.advanceTimersByTime(100);
    expect(url.writes).toHaveLength(1);
    expect(backendFromUrl(url.read())).toBe('wasm');
    const r = decodeShare(url.read());
    expect(r).toMatchObject({ kind: 'ok', presetId: 'quick', spec: { seed: 5, grpo: { learningRate: 0.002 } } });
    stop();
  });

  it('keeps the last valid link while the draft is invalid', () => {
    const url = fakeUrl('');
    const stop = startShareLinks(url, 250);
    useLab.getState().editDraft((d) => ({ ...d, steps: 3 }));
    vi.advanceTimersByTime(250);
    const valid = url.read();
    useLab.getState().editDraft((d) => ({ ...d, steps: Number.NaN }));
    vi.advanceTimersByTime(250);
    expect(url.read()).toBe(valid);
    expect(flushDraftToUrl()).toBe(false);
    stop();
  });

  it('flushDraftToUrl writes at once; after the cleanup nothing is written', () => {
    const url = fakeUrl('');
    const stop = startShareLinks(url, 250);
    useLab.getState().editDraft((d) => ({ ...d, seed: 11 }));
    expect(flushDraftToUrl()).toBe(true);
    expect(decodeShare(url.read())).toMatchObject({ kind: 'ok', spec: { seed: 11 } });
    stop();
    useLab.getState().editDraft((d) => ({ ...d, seed: 12 }));
    vi.advanceTimersByTime(1000);
    expect(url.writes).toHaveLength(1);
  });

  it('loads the link it was opened with, then rewrites it only after an edit', () => {
    const opened = shareSearch('', 'quick', { ...quick, seed: 8 });
    const url = fakeUrl(opened);
    const stop = startShareLinks(url, 250);
    expect(useLab.getState().draft.seed).toBe(8);
    vi.advanceTimersByTime(1000);
    expect(url.writes).toEqual([]);
    useLab.getState().choosePreset('quick');
    vi.advanceTimersByTime(250);
    expect(url.read()).toBe(shareSearch('', 'quick', quick));
    stop();
  });
});
