import { describe, expect, it } from 'vitest';
import { type RunView, runActionFor, shortcutFor } from './shortcuts';

const body = { tagName: 'BODY' };

describe('shortcutFor', () => {
  it('maps Space, the right arrow and ? on the page', () => {
    expect(shortcutFor({ key: ' ', target: body })).toBe('toggle');
    expect(shortcutFor({ key: 'ArrowRight', target: body })).toBe('step');
    expect(shortcutFor({ key: '?', target: body })).toBe('help');
    expect(shortcutFor({ key: 'a', target: body })).toBeNull();
    expect(shortcutFor({ key: 'ArrowLeft', target: body })).toBeNull();
  });

  it('is ignored while typing in a field, whatever the key', () => {
    for (const target of [{ tagName: 'INPUT' }, { tagName: 'textarea' }, { tagName: 'SELECT' }, { tagName: 'DIV', isContentEditable: true }, { tagName: 'DIV', role: 'textbox' }]) {
      for (const key of [' ', 'ArrowRight', '?']) expect(shortcutFor({ key, target }), `${key} in ${target.tagName}`).toBeNull();
    }
  });

  it('leaves Space and arrows to buttons, links and tabs, but ? still opens the list there', () => {
    for (const target of [{ tagName: 'BUTTON' }, { tagName: 'A' }, { tagName: 'SUMMARY' }, { tagName: 'DIV', role: 'tab' }, { tagName: 'DIV', role: 'slider' }]) {
      expect(shortcutFor({ key: ' ', target })).toBeNull();
      expect(shortcutFor({ key: 'ArrowRight', target })).toBeNull();
      expect(shortcutFor({ key: '?', target })).toBe('help');
    }
  });

  it('does nothing with a modifier held or while a dialog is open', () => {
    expect(shortcutFor({ key: ' ', ctrlKey: true, target: body })).toBeNull();
    expect(shortcutFor({ key: '?', metaKey: true, target: body })).toBeNull();
    expect(shortcutFor({ key: 'ArrowRight', altKey: true, target: body })).toBeNull();
    expect(shortcutFor({ key: ' ', target: body, dialogOpen: true })).toBeNull();
    expect(shortcutFor({ key: ' ', target: null })).toBe('toggle');
  });
});

describe('runActionFor', () => {
  const run = (over: Partial<RunView>): RunView => ({ phase: 'idle', paused: false, pauseRequested: false, stepRequested: false, ...over });

  it('Space starts when nothing runs (if the experiment is valid), pauses a run, resumes a paused one', () => {
    expect(runActionFor('toggle', run({ phase: 'idle' }), true)).toBe('start');
    expect(runActionFor('toggle', run({ phase: 'done' }), true)).toBe('start');
    expect(runActionFor('toggle', run({ phase: 'idle' }), false)).toBeNull();
    expect(runActionFor('toggle', run({ phase: 'rl' }), true)).toBe('pause');
    expect(runActionFor('toggle', run({ phase: 'warmstart' }), true)).toBe('pause');
    expect(runActionFor('toggle', run({ phase: 'rl', pauseRequested: true }), true)).toBeNull();
    expect(runActionFor('toggle', run({ phase: 'rl', paused: true }), true)).toBe('resume');
  });

  it('the right arrow steps only a paused run, once at a time', () => {
    expect(runActionFor('step', run({ phase: 'rl', paused: true }), true)).toBe('step');
    expect(runActionFor('step', run({ phase: 'rl' }), true)).toBeNull();
    expect(runActionFor('step', run({ phase: 'rl', paused: true, stepRequested: true }), true)).toBeNull();
    expect(runActionFor('step', run({ phase: 'done', paused: true }), true)).toBeNull();
    expect(runActionFor('help', run({ phase: 'rl' }), true)).toBeNull();
  });

  it('never does what a classroom link hid: no pause, resume or step without their buttons', () => {
    expect(runActionFor('toggle', run({ phase: 'rl' }), true, ['pause'])).toBeNull();
    expect(runActionFor('toggle', run({ phase: 'rl', paused: true }), true, ['pause'])).toBeNull();
    expect(runActionFor('toggle', run({ phase: 'idle' }), true, ['pause'])).toBe('start');
    expect(runActionFor('step', run({ phase: 'rl', paused: true }), true, ['step'])).toBeNull();
    expect(runActionFor('step', run({ phase: 'rl', paused: true }), true, ['speed'])).toBe('step');
  });
});
