/**
 * The cohort editor adds members up to the spec's own limit (MAX_MEMBERS, spec.ts: 8 since the
 * overlap preset), not up to a number of its own: before, its buttons and addMember stopped at 6
 * while a spec may hold 8. Rendered to markup (no DOM in these tests) from the real store.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { ExperimentSpecSchema, MAX_MEMBERS } from '../../core/experiment/spec';
import { resetLab, useLab } from '../store';
import { addMember } from '../store/specEdits';
import { CohortEditor } from './CohortEditor';

/** The add buttons as rendered: whether each is disabled, and its title. */
function addButtons(): { disabled: boolean; title: string }[] {
  initial.draft = useLab.getState().draft;
  const html = renderToStaticMarkup(createElement(CohortEditor));
  return [...html.matchAll(/<button[^>]*data-testid="add-member-[^"]+"[^>]*>/g)].map((m) => ({
    disabled: / disabled=""/.test(m[0]),
    title: /title="([^"]*)"/.exec(m[0])?.[1] ?? '',
  }));
}

/** The draft grown to `n` members by the editor's own edit. */
function growTo(n: number): void {
  // At most n edits: an edit that adds nothing (a lower cap) must not loop forever.
  for (let i = 0; i < n && useLab.getState().draft.members.length < n; i++) useLab.getState().editDraft((d) => addMember(d, 'mlp'));
}

// Rendering to markup reads a zustand store's initial state (its server snapshot), so the test puts
// the draft it renders there too, and restores it after.
const initial = useLab.getInitialState();
const initialDraft = initial.draft;
beforeEach(() => resetLab());
afterEach(() => {
  initial.draft = initialDraft;
});

describe('CohortEditor', () => {
  it("follows the spec's limit, which the overlap preset fills", () => {
    expect(MAX_MEMBERS).toBe(8);
    expect(PRESETS.overlap.spec.members.length).toBeLessThanOrEqual(MAX_MEMBERS);
    const nine = structuredClone(PRESETS.quick.spec);
    nine.members = Array.from({ length: MAX_MEMBERS + 1 }, (_, i) => ({ ...nine.members[0], id: `M${i}` }));
    expect(ExperimentSpecSchema.safeParse(nine).error?.issues.some((i) => i.path.join('.') === 'members')).toBe(true);
  });

  it('adds a 7th and an 8th member, then stops and says why', () => {
    growTo(MAX_MEMBERS - 1);
    expect(useLab.getState().draft.members).toHaveLength(MAX_MEMBERS - 1);
    expect(addButtons().every((b) => !b.disabled)).toBe(true);
    growTo(MAX_MEMBERS);
    expect(useLab.getState().draft.members).toHaveLength(MAX_MEMBERS);
    // The 8-member draft is a valid spec.
    expect(ExperimentSpecSchema.safeParse(useLab.getState().draft).success).toBe(true);
    const full = addButtons();
    expect(full.length).toBeGreaterThan(0);
    expect(full.every((b) => b.disabled && b.title === `At most ${MAX_MEMBERS} members`)).toBe(true);
    // And the edit itself refuses a 9th.
    useLab.getState().editDraft((d) => addMember(d, 'mlp'));
    expect(useLab.getState().draft.members).toHaveLength(MAX_MEMBERS);
  });
});
