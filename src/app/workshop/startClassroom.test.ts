/** Page load with a classroom link (startClassroom.ts), on a fake URL. */
import { beforeEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { resetLab, useLab } from '../store';
import type { UrlPort } from '../shareLink';
import { WORKSHOP } from './sequence';
import { startClassroom } from './startClassroom';

function fakeUrl(search: string): UrlPort & { search: string } {
  const url = {
    search,
    read: () => url.search,
    write: (s: string) => {
      url.search = s;
    },
  };
  return url;
}

beforeEach(() => resetLab());

describe('startClassroom', () => {
  it('reads hidden controls and workshop mode; what it ignored becomes warnings; a clamped step is written back', () => {
    const url = fakeUrl('?backend=wasm&hide=arms,nope&workshop=1&step=9');
    startClassroom(url);
    const s = useLab.getState();
    expect(s.classroom.hidden).toEqual(['arms']);
    expect(s.classroom.warnings).toHaveLength(2);
    expect(s.classroom.warnings[0]).toContain('"nope"');
    expect(s.classroom.warnings[1]).toContain(`showing step ${WORKSHOP.length}`);
    expect(s.classroom.workshop?.step).toBe(WORKSHOP.length);
    expect(s.presetId).toBe(WORKSHOP[WORKSHOP.length - 1].presetId);
    expect(url.search).toBe(`?backend=wasm&hide=arms%2Cnope&workshop=1&step=${WORKSHOP.length}`);
  });

  it("keeps a linked experiment of the step's preset, and a second call changes nothing", () => {
    const first = WORKSHOP[0].presetId;
    useLab.getState().loadSpec(first, { ...structuredClone(PRESETS[first].spec), seed: 4 }, true);
    const url = fakeUrl('?workshop=1&step=1');
    startClassroom(url);
    startClassroom(url);
    expect(useLab.getState().draft.seed).toBe(4);
    expect(useLab.getState().classroom.workshop).toMatchObject({ step: 1, prediction: null });
    expect(url.search).toBe('?workshop=1&step=1');
  });

  it('leaves a page without classroom params as it is', () => {
    const url = fakeUrl('?v=1&preset=quick');
    useLab.getState().choosePreset('quick');
    startClassroom(url);
    expect(useLab.getState().classroom).toEqual({ hidden: [], warnings: [], workshop: null });
    expect(useLab.getState().presetId).toBe('quick');
    expect(url.search).toBe('?v=1&preset=quick');
  });
});
