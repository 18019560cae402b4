import { describe, expect, it } from 'vitest';
import { checkTaskDefinition, parseTaskFile, TASK_LIMITS } from './index';

const messages = (r: { findings: { message: string }[] }) => r.findings.map((f) => f.message);

describe('parseTaskFile', () => {
  it('reads CSV with RFC 4180 quoting and a scratchpad column', () => {
    const csv = 'prompt,answer,scratchpad\r\n"1,2=",3,\n"say ""hi""=",hi,"h,i"\n"two\nlines=",2,\n';
    const r = parseTaskFile('my task.csv', csv);
    expect(r.findings).toEqual([]);
    expect(r.definition).toEqual({
      kind: 'data',
      title: 'my task',
      rows: [
        { prompt: '1,2=', answer: '3' },
        { prompt: 'say "hi"=', answer: 'hi', scratchpad: 'h,i' },
        { prompt: 'two\nlines=', answer: '2' },
      ],
    });
    // The line break inside the quoted prompt is a control character: the check names the file's line (4).
    const check = checkTaskDefinition(r.definition!);
    expect(check.findings[0]).toMatchObject({ line: 4, severity: 'error' });
    expect(check.findings[0].message).toMatch(/control character U\+000A .*the prompt on line 4/);
  });

  it('names lines with the wrong number of fields, unclosed quotes and a bad header', () => {
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=,1\n2=,2,x\n3=\n'))).toEqual([
      'line 3 has 3 fields; the header has 2',
      'line 4 has 1 field; the header has 2',
    ]);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n"1=,1\n'))).toEqual(['line 2: a quoted field is never closed']);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=,1\n2=,2,3\n"3=,3\n'))).toEqual(['line 3 has 3 fields; the header has 2', 'line 4: a quoted field is never closed']);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1"=,1\n'))[0]).toMatch(/line 2: a quote in the middle/);
    expect(messages(parseTaskFile('t.csv', 'question,reply\n1=,1\n'))[0]).toMatch(/the header must be prompt,answer/);
    expect(messages(parseTaskFile('t.csv', ''))[0]).toMatch(/empty/);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n'))[0]).toMatch(/no rows/);
  });

  it('refuses a "__proto__" key in JSON and JSON Lines in words, rather than losing it in silence', () => {
    // JSON.parse keeps the key as an own property; a schema's record would set the prototype with it, and the variable would vanish.
    const generator = '{"kind":"generator","title":"t","template":"{a}+{b}=","vars":{"a":{"min":1,"max":9},"__proto__":{"min":1,"max":9},"b":{"min":1,"max":9}},"answer":"a+b"}';
    expect(parseTaskFile('t.json', generator)).toEqual({ findings: [expect.objectContaining({ severity: 'error', message: 'the file has a "__proto__" key, which is not a name a task can use' })] });
    expect(messages(parseTaskFile('t.jsonl', '{"prompt":"1=","answer":"1"}\n{"prompt":"2=","answer":"2","__proto__":{"x":1}}\n'))).toEqual([
      'line 2 has a "__proto__" key, which is not a name a task can use',
    ]);
    expect(messages(parseTaskFile('t.json', '{"kind": "generator",'))[0]).toMatch(/^the file is not valid JSON \(/);
  });

  it('refuses formula cells rather than rewriting them, and keeps negative numbers', () => {
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=,=cmd|\' /C calc\'!A0\n'))[0]).toMatch(/line 2: the cell "=cmd\|' \/C calc'!A0" starts like a spreadsheet formula/);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n@SUM(1)=,1\n'))[0]).toMatch(/spreadsheet formula/);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=,+A1\n'))[0]).toMatch(/spreadsheet formula/);
    expect(parseTaskFile('t.csv', 'prompt,answer\n3-5=,-2\n').definition?.kind).toBe('data');
  });

  it('refuses binary, oversized and unknown files before reading them', () => {
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=\u0000,1\n'))[0]).toMatch(/looks binary/);
    expect(messages(parseTaskFile('t.csv', 'prompt,answer\n1=,\ufffd\n'))[0]).toMatch(/looks binary/);
    expect(messages(parseTaskFile('t.csv', 'x'.repeat(TASK_LIMITS.fileBytes + 1)))[0]).toMatch(/the most a task file may have is 524288/);
    expect(messages(parseTaskFile('t.exe', 'MZ'))[0]).toMatch(/not a \.csv, \.jsonl or \.json file/);
    const many = 'prompt,answer\n' + Array.from({ length: TASK_LIMITS.rows + 5 }, (_, i) => `${i}=,1`).join('\n');
    expect(messages(parseTaskFile('t.csv', many))[0]).toMatch(/more than 5000 rows/);
    // One row over, without a final line break.
    const one = 'prompt,answer\n' + Array.from({ length: TASK_LIMITS.rows + 1 }, (_, i) => `${i}=,1`).join('\n');
    expect(messages(parseTaskFile('t.csv', one))[0]).toMatch(/more than 5000 rows/);
  });

  it('reads JSON Lines and names the lines it cannot read', () => {
    const r = parseTaskFile('t.jsonl', '{"prompt":"1+1=","answer":2}\n\n{"prompt":"2+2=","answer":"4","scratchpad":"2,4"}\n');
    expect(r.definition).toMatchObject({ kind: 'data', rows: [{ prompt: '1+1=', answer: '2' }, { prompt: '2+2=', answer: '4', scratchpad: '2,4' }] });
    expect(messages(parseTaskFile('t.jsonl', '{"prompt":"1=","answer":"1"}\n{oops\n[1]\n{"prompt":"1=","answer":"1","__proto__":1}\n'))).toEqual([
      'line 2 is not valid JSON',
      'line 3 is not an object with "prompt" and "answer"',
      'line 4 has a "__proto__" key, which is not a name a task can use',
    ]);
  });

  it('reads a JSON definition or an array of rows', () => {
    const gen = { kind: 'generator', title: 'sum', template: '{a}+{b}=', vars: { a: { min: 0, max: 9 }, b: { min: 0, max: 9 } }, answer: 'a+b' };
    expect(parseTaskFile('g.json', JSON.stringify(gen)).definition).toEqual(gen);
    expect(parseTaskFile('r.json', '[{"prompt":"a=","answer":"1"}]').definition).toMatchObject({ kind: 'data', rows: [{ prompt: 'a=', answer: '1' }] });
    expect(messages(parseTaskFile('g.json', '{"kind":"generator"}'))[0]).toMatch(/title/);
    expect(messages(parseTaskFile('g.json', '{not json'))[0]).toMatch(/not valid JSON/);
    expect(messages(parseTaskFile('g.json', '42'))[0]).toMatch(/holds a task definition/);
  });

  it('checks a 2,000-row CSV and names a duplicate and an empty answer by line', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `${i}+${i}=,${2 * i}`);
    lines[29] = '11+11=,22'; // line 31 of the file repeats line 13 (row 11)
    lines[20] = '20+20=,';
    const r = parseTaskFile('big.csv', 'prompt,answer\n' + lines.join('\n'));
    const found = checkTaskDefinition(r.definition!).findings;
    expect(found).toContainEqual({ line: 22, severity: 'error', message: 'answer empty on line 22' });
    expect(found).toContainEqual({ line: 31, severity: 'warning', message: 'prompt on line 31 repeats line 13; the repeat is left out' });
  });
});
