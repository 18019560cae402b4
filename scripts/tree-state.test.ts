import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { treeChanges, treeState } from './tree-state.mjs';

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tree-state-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir });
  git('init', '-q');
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'a');
  return dir;
}

describe('npm test leaves the working tree clean', () => {
  it('sees nothing when nothing changed', () => {
    const dir = repo();
    expect(treeChanges(treeState(dir), treeState(dir))).toEqual([]);
  });

  it('sees a tracked file rewritten and a new untracked file', () => {
    const dir = repo();
    const before = treeState(dir);
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    writeFileSync(join(dir, 'b.txt'), 'new\n');
    expect(treeChanges(before, treeState(dir))).toEqual([' M a.txt', '?? b.txt']);
  });

  it('sees a file that was already modified change again', () => {
    const dir = repo();
    writeFileSync(join(dir, 'a.txt'), 'two\n');
    const before = treeState(dir);
    writeFileSync(join(dir, 'a.txt'), 'three\n');
    expect(treeChanges(before, treeState(dir))).toHaveLength(1);
  });
});
