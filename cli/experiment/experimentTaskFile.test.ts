/**
 * `npm run experiment -- --task-file FILE` against the real CLI: a generator and a CSV run to the
 * end in a few steps, and every hostile file is refused in words with exit code 2 before any
 * training starts (no backend line on stderr).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/core/experiment/presets';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const dir = mkdtempSync(join(tmpdir(), 'cohort-task-'));
const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const runCli = (...args: string[]) => spawnSync(tsx, ['cli/experiment/experiment.ts', '--preset', 'quick', '--workers', '1', ...args], { encoding: 'utf8', timeout: 240_000 });

const sum = { kind: 'generator', title: 'Sum of two', template: '{a}+{b}=', vars: { a: { min: 0, max: 49 }, b: { min: 0, max: 49 } }, answer: 'a+b' };

/** Refused before training: exit 2, the words asked for, and no backend was started. */
function refused(path: string, words: RegExp): void {
  const r = runCli('--task-file', path, '--steps', '1');
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr).toMatch(words);
  expect(r.stderr).not.toMatch(/backend:/);
}

describe('--task-file end to end', () => {
  it('runs a generator to the end, going on from the best warm start it reached', () => {
    const r = runCli('--task-file', file('sum.json', JSON.stringify(sum)), '--steps', '1', '--go-on');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/note: 2500 distinct problems; prompts up to 6 characters/);
    expect(r.stderr).toMatch(/task: Sum of two; labeled 600, RL 300, held-out 64/);
    expect(r.stdout).toMatch(/pass@1 start\/best\/end/);
  }, 240_000);

  it('stops a warm start out of reach with the best reached, the cause measured and what would help', () => {
    // Two-digit products written without working: four-digit answers no small model learns in 200 steps.
    const product = { ...sum, title: 'Product', template: '{a}*{b}=', vars: { a: { min: 10, max: 99 }, b: { min: 10, max: 99 } }, answer: 'a*b' };
    const r = runCli('--task-file', file('product.json', JSON.stringify(product)), '--steps', '1');
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/Member A's warm start reached at best .* against its target of 40% in 200 steps, so this task looks out of its reach for now\. Measured: member A .*\. What would help: .*\(add --go-on to do so\)/);
    expect(r.stderr).not.toMatch(/onMiss/);
  }, 240_000);

  it('runs a small CSV with its sizes fitted and the memorisation warning, with the numbers', () => {
    const rows = Array.from({ length: 120 }, (_, i) => `${i}?,${i % 3}`).join('\n');
    const r = runCli('--task-file', file('mod3.csv', `prompt,answer\n${rows}\n`), '--steps', '1', '--go-on');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/task: mod3; labeled 60, RL 36, held-out 24/);
    expect(r.stderr).toMatch(/warning: only 120 rows: .* memorise 60 warm-start problems/);
  }, 240_000);
});

describe('--task-file refuses hostile files in words before training', () => {
  it('a formula-injection cell', () => refused(file('f.csv', "prompt,answer\n1=,=cmd|' /C calc'!A0\n"), /line 2: the cell "=cmd\|' \/C calc'!A0" starts like a spreadsheet formula/));
  it('a binary file', () => refused(file('b.csv', Buffer.from([0x70, 0x2c, 0x61, 0x0a, 0xff, 0xfe, 0x00, 0x01])), /not UTF-8 text \(it looks binary\)/));
  it('a file over the size limit', () => refused(file('big.csv', 'prompt,answer\n' + '1=,1\n'.repeat(120_000)), /has 600014 bytes; the most a task file may have is 524288/));
  it('too many rows', () => refused(file('rows.csv', 'prompt,answer\n' + Array.from({ length: 5001 }, (_, i) => `${i}=,1`).join('\n')), /more than 5000 rows/));
  it('malformed CSV', () => refused(file('m.csv', 'prompt,answer\n1=,1\n2=,2,3\n"3=,3\n'), /line 3 has 3 fields; the header has 2/));
  it('control and bidirectional characters', () => refused(file('c.csv', 'prompt,answer\nab\u202ecd=,1\nx\u0007=,2\n'), /bidirectional character U\+202E .*line 2[\s\S]*control character U\+0007 .*line 3/));
  it('an enormous range', () => refused(file('r.json', JSON.stringify({ ...sum, vars: { a: { min: 0, max: 1e15 }, b: sum.vars.b } })), /vars\.a\.max/));
  it('an expression built to build a huge string', () => refused(file('h.json', JSON.stringify({ ...sum, answer: 'pad(a, 1000000000)' })), /would have 1000000000 characters; the most is 64/));
  it('an expression built to be slow', () => refused(file('s.json', JSON.stringify({ ...sum, answer: 'join(join(join(join(pad(a,8),","),","),","),",")' })), /the most is 64/));
  it('a template whose space cannot fill the split', () => refused(file('t.json', JSON.stringify({ ...sum, vars: { a: { min: 0, max: 3 }, b: { min: 0, max: 3 } } })), /the task has 16 distinct problems; a run needs at least 20/));
  it('an unknown file type', () => refused(file('x.exe', 'MZ'), /not a \.csv, \.jsonl or \.json file/));

  it('a device that reports 0 bytes and never ends', () => refused('/dev/zero', /\/dev\/zero is not a regular file \(a device, a pipe or a folder\); a task file is a file of at most 524,288 bytes/));
  it('a folder', () => refused(dir, /is not a regular file/));
  it('a "__proto__" variable, which a schema would drop in silence', () =>
    refused(file('p.json', JSON.stringify(sum).replace('"vars":{', '"vars":{"__proto__":{"min":0,"max":9},')), /the file has a "__proto__" key, which is not a name a task can use/));
  it('a placeholder only Object.prototype has', () => refused(file('k.json', JSON.stringify({ ...sum, template: '{a}+{b}={constructor}' })), /\{constructor\} at position 8 is not a declared variable/));
  it('a rule whose check would pass its budget, said before anything runs', () => {
    const terms = Array.from({ length: 6 }, (_, i) => `reverse(join(digits(a*${i + 3}+b), "-"))`).join(',');
    refused(file('heavy.json', JSON.stringify({ ...sum, vars: { a: { min: 0, max: 99 }, b: { min: 0, max: 199 } }, answer: `len(cat(${terms}))` })), /checking the task in .*heavy\.json \(at most 1,500,000 steps\)[\s\S]*checking this task would take up to [\d,]+ steps \(2,004 problems of up to \d+ steps each\)/);
  });
});

describe('what the CLI prints of a hostile file is text, never terminal control', () => {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what must not reach the terminal
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f\u202e]/;
  it('a title with U+202E is refused, and the refusal shows it escaped', () => {
    const r = runCli('--task-file', file('bidi.json', JSON.stringify({ ...sum, title: 'ok \u202edetpecca si ksat sihT' })), '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bidirectional character U\+202E is not allowed/);
    expect(r.stderr).not.toMatch(raw);
  });
  it('a spec whose task title holds U+202E and ESC: the refusal quotes the title escaped', () => {
    const spec = { ...PRESETS.quick.spec, task: { ...PRESETS.quick.spec.task, id: 'custom', difficulty: 1, definition: { ...sum, title: 'ok \u202edetpecca si ksat sihT \u001b[2J' } } };
    const r = spawnSync(tsx, ['cli/experiment/experiment.ts', '--spec', file('bidi-spec.json', JSON.stringify(spec)), '--workers', '1'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/ok <U\+202E>detpecca si ksat sihT <U\+001B>\[2J: the title or description/);
    expect(r.stderr).not.toMatch(raw);
  });
  it('a JSON Lines key with ESC and BEL is quoted escaped', () => {
    const r = runCli('--task-file', file('esc.jsonl', '{"prompt":"1=","answer":"1","\\u001b]0;pwned\\u0007\\u001b[2J":1}\n'), '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/\\x1b\]0;pwned\\x07/);
    expect(r.stderr).not.toMatch(raw);
  });
  it("a file's name with ESC is quoted escaped", () => {
    const r = runCli('--task-file', join(dir, 'no\u001b[2Jsuch.csv'), '--steps', '1');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*no\\x1b\[2Jsuch\.csv/);
    expect(r.stderr).not.toMatch(raw);
  });
});

describe('a split its task cannot fill is refused with the numbers, by every command, before anything runs', () => {
  // {a}{b}= writes a=1, b=23 and a=12, b=3 alike: 20,100 assignments make 18,390 prompts.
  const spec = {
    ...PRESETS.quick.spec,
    task: { ...PRESETS.quick.spec.task, id: 'custom', difficulty: 1, definition: { kind: 'generator', title: 'Run together', template: '{a}{b}=', vars: { a: { min: 0, max: 200 }, b: { min: 0, max: 99 } }, answer: 'a+b' } },
    data: { labeledPool: 16_000, rlPool: 3_000, heldOut: 1_100 },
  };
  const words = /needs 20100 distinct problems \(warm start 16000 \+ RL 3000 \+ held-out 1100\) but the task has only 18390/;
  it('npm run experiment -- --spec', () => {
    const r = spawnSync(tsx, ['cli/experiment/experiment.ts', '--spec', file('together.json', JSON.stringify(spec)), '--workers', '1'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(words);
  });
  it('npm run export -- --spec', () => {
    const models = spec.members.flatMap((m) => ['--model', `${m.id}=Qwen/Qwen2.5-0.5B-Instruct`]);
    const r = spawnSync(tsx, ['cli/trl/export.ts', '--spec', file('together2.json', JSON.stringify(spec)), '--to', 'trl', ...models, '--out', join(dir, 'out')], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(words);
  });
});

