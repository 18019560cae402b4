/** Classroom params (classroom.ts): hide= and workshop=/step= read as untrusted input, and kept in share links. */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/experiment/presets';
import { HIDE_NAMES, MAX_HIDE_CHARS, MAX_HIDE_NAMES, parseHide, parseWorkshop, workshopSearch } from './classroom';
import { MAX_QUERY_CHARS, decodeShare, shareSearch } from './url';

describe('hide=', () => {
  it('reads known names, each once, in order, whatever their case and spacing', () => {
    expect(parseHide('?hide=arms,cohort,grpo,task')).toEqual({ hidden: ['arms', 'cohort', 'grpo', 'task'], warning: null });
    expect(parseHide('?hide= Speed , ARMS,,arms')).toEqual({ hidden: ['speed', 'arms'], warning: null });
    expect(parseHide('?hide=arms%2Cgrpo')).toEqual({ hidden: ['arms', 'grpo'], warning: null });
    expect(parseHide('?hide=arms&hide=step')).toEqual({ hidden: ['arms', 'step'], warning: null });
  });

  it('every name it knows is read', () => {
    expect(parseHide(`?hide=${HIDE_NAMES.join(',')}`).hidden).toEqual([...HIDE_NAMES]);
  });

  it('hides nothing without hide=, or with an empty one', () => {
    expect(parseHide('')).toEqual({ hidden: [], warning: null });
    expect(parseHide('?v=1&preset=quick')).toEqual({ hidden: [], warning: null });
    expect(parseHide('?hide=')).toEqual({ hidden: [], warning: null });
  });

  it('ignores unknown names with a warning that names them and the known ones', () => {
    const r = parseHide('?hide=arms,start,__proto__');
    expect(r.hidden).toEqual(['arms']);
    expect(r.warning).toBe(`Unknown controls "start", "__proto__" in hide= ignored (known: ${HIDE_NAMES.join(', ')}).`);
    expect(parseHide('?hide=nope').warning).toContain('Unknown control "nope" in hide= ignored');
  });

  it('quotes untrusted names as cut JSON strings (text, never markup)', () => {
    const r = parseHide(`?hide=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
    expect(r.hidden).toEqual([]);
    expect(r.warning).toContain('"<img src=x onerror=alert…"');
  });

  it('hides nothing when the value is over the size limit', () => {
    const long = `arms,${'x'.repeat(MAX_HIDE_CHARS)}`;
    expect(parseHide(`?hide=${long}`)).toEqual({ hidden: [], warning: `hide= is ${long.length} characters long (the limit is ${MAX_HIDE_CHARS}): nothing is hidden.` });
  });

  it('reads at most MAX_HIDE_NAMES names', () => {
    const names = Array.from({ length: MAX_HIDE_NAMES + 4 }, (_, i) => (i === MAX_HIDE_NAMES + 1 ? 'grpo' : 'arms'));
    const r = parseHide(`?hide=${names.join(',')}`);
    expect(r.hidden).toEqual(['arms']);
    expect(r.warning).toBe(`Only the first ${MAX_HIDE_NAMES} of the ${MAX_HIDE_NAMES + 4} names in hide= were read.`);
  });

  it('reads nothing from a query over the share-link limit', () => {
    expect(parseHide(`?hide=arms&x=${'y'.repeat(MAX_QUERY_CHARS)}`)).toEqual({ hidden: [], warning: null });
  });
});

describe('workshop= and step=', () => {
  it('is off without workshop=1', () => {
    expect(parseWorkshop('', 5)).toEqual({ workshop: null, warning: null });
    expect(parseWorkshop('?step=2', 5)).toEqual({ workshop: null, warning: null });
    expect(parseWorkshop('?workshop=0&step=2', 5)).toEqual({ workshop: null, warning: null });
  });

  it('reads the step, 1-based, starting at 1', () => {
    expect(parseWorkshop('?workshop=1', 5)).toEqual({ workshop: { step: 1 }, warning: null });
    expect(parseWorkshop('?workshop=1&step=2', 5)).toEqual({ workshop: { step: 2 }, warning: null });
    expect(parseWorkshop('?workshop=1&step=5', 5)).toEqual({ workshop: { step: 5 }, warning: null });
  });

  it('keeps a step out of range inside the sequence, and says so', () => {
    expect(parseWorkshop('?workshop=1&step=9', 5)).toEqual({ workshop: { step: 5 }, warning: 'step=9 is not a step of this workshop (1-5): showing step 5.' });
    expect(parseWorkshop('?workshop=1&step=0', 5)).toEqual({ workshop: { step: 1 }, warning: 'step=0 is not a step of this workshop (1-5): showing step 1.' });
  });

  it('starts at step 1 when step= is not a small whole number', () => {
    for (const bad of ['two', '-1', '1.5', '1e2', '0x2', '12345', ' 2']) {
      const r = parseWorkshop(`?workshop=1&step=${encodeURIComponent(bad)}`, 5);
      expect(r.workshop).toEqual({ step: 1 });
      expect(r.warning).toContain('is not a step number (1-5): showing step 1.');
    }
  });

  it('stays off for any other workshop= value, with a warning', () => {
    expect(parseWorkshop('?workshop=yes', 5)).toEqual({ workshop: null, warning: 'workshop="yes" is not 1: workshop mode is off.' });
  });

  it('writes workshop=1&step=N, or removes both, keeping every other param', () => {
    expect(workshopSearch('?v=1&preset=quick&hide=arms', { step: 3 })).toBe('?v=1&preset=quick&hide=arms&workshop=1&step=3');
    expect(workshopSearch('?workshop=1&step=3&backend=wasm', { step: 4 })).toBe('?workshop=1&step=4&backend=wasm');
    expect(workshopSearch('?workshop=1&step=3&backend=wasm', null)).toBe('?backend=wasm');
    expect(workshopSearch('?workshop=1&step=3', null)).toBe('');
  });
});

describe('share links made from a classroom page', () => {
  it('keep hide=, workshop= and step=, and still decode to the same experiment', () => {
    const spec = { ...structuredClone(PRESETS.quick.spec), seed: 9 };
    const search = shareSearch('?hide=arms,grpo&workshop=1&step=2&v=1&preset=collapse', 'quick', spec);
    const params = new URLSearchParams(search);
    expect(params.get('hide')).toBe('arms,grpo');
    expect(params.get('workshop')).toBe('1');
    expect(params.get('step')).toBe('2');
    expect(parseHide(search).hidden).toEqual(['arms', 'grpo']);
    expect(parseWorkshop(search, 5).workshop).toEqual({ step: 2 });
    const decoded = decodeShare(search);
    expect(decoded.kind).toBe('ok');
    if (decoded.kind === 'ok') expect(decoded.spec.seed).toBe(9);
  });
});
