/** Whether an experiment asks its preset's question (presetTask.ts), and what it is called when not. */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { GALLERY } from '../../core/tasks/custom/gallery';
import { withBuiltinTask } from './TaskControls';
import { EDITED_EXPERIMENT, experimentTitle, noSeedResultsText, otherTask } from './presetTask';
import { generatorOf, withGalleryTask, EXAMPLE_GENERATOR } from './taskEditorModel';
import { specWithTask } from '../../core/experiment/withTask';

const preset = PRESETS['peers-learn'].spec;
const gallery = (id: string): ExperimentSpec => withGalleryTask(preset, 'peers-learn', GALLERY.find((t) => t.id === id)!)!;

describe('the task an experiment asks', () => {
  it("the preset's own task, and other edits that keep it, ask the preset's question", () => {
    expect(otherTask(preset.task, 'peers-learn')).toBeNull();
    expect(otherTask({ ...preset.task, scratchpad: 'never' }, 'peers-learn')).toBeNull();
    expect(otherTask(preset.task, 'no-such-preset')).toBeNull();
  });
  it('a gallery task, a task of one\'s own, another built-in task or difficulty ask another', () => {
    expect(otherTask(gallery('largest-digit').task, 'peers-learn')).toEqual({ title: 'The largest of four digits', kind: 'gallery' });
    const own = specWithTask(preset, generatorOf(EXAMPLE_GENERATOR).definition!);
    expect(own.ok && otherTask(own.spec.task, 'peers-learn')).toEqual({ title: 'Two-digit addition', kind: 'own' });
    expect(otherTask(withBuiltinTask(preset, 'addition', 'peers-learn').task, 'peers-learn')).toEqual({ title: 'Multi-digit addition, difficulty 3', kind: 'builtin' });
    expect(otherTask({ ...preset.task, difficulty: 4 }, 'peers-learn')).toEqual({ title: 'Digit sum mod 10, difficulty 4', kind: 'builtin' });
  });
});

describe("an experiment's name", () => {
  it('is the preset\'s title, or "An edited experiment" for an edit that keeps its task', () => {
    expect(experimentTitle(preset, 'peers-learn', false)).toBe(PRESETS['peers-learn'].title);
    expect(experimentTitle({ ...preset, steps: 10 }, 'peers-learn', true)).toBe(EDITED_EXPERIMENT);
  });
  it('a gallery task is never "an edited experiment": it is named by its title', () => {
    for (const t of GALLERY) {
      const spec = gallery(t.id);
      expect(experimentTitle(spec, 'peers-learn', true)).toBe(t.definition.title);
      expect(noSeedResultsText(spec, 'peers-learn')).toBe(`"${t.definition.title}" is not the preset's task: the preset's results over seeds were measured on its own task and do not apply.`);
      expect(noSeedResultsText(spec, 'peers-learn')).not.toContain(EDITED_EXPERIMENT);
    }
    expect(noSeedResultsText({ ...preset, steps: 10 }, 'peers-learn')).toBe('An edited experiment: the 8-seed results do not apply.');
  });
});
