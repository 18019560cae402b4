// What `npm test` may not change: the git working tree. A snapshot is `git status --porcelain`
// plus a hash of `git diff` (so a file already modified before the run and rewritten by it is
// caught too). Outside a git checkout (a tarball) there is nothing to compare: null.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';

function git(root, args) {
  const res = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return res.status === 0 ? res.stdout : null;
}

/** The working tree's state, or null when git or the checkout is missing. */
export function treeState(root) {
  const status = git(root, ['status', '--porcelain', '--untracked-files=all']);
  const diff = git(root, ['diff', '--binary']);
  if (status === null || diff === null) return null;
  return { status, diffHash: createHash('sha256').update(diff).digest('hex') };
}

/** Lines saying what changed between two snapshots (empty: nothing). */
export function treeChanges(before, after) {
  if (!before || !after) return [];
  const was = new Set(before.status.split('\n').filter(Boolean));
  const changed = after.status.split('\n').filter((l) => l && !was.has(l));
  if (changed.length === 0 && before.diffHash !== after.diffHash) changed.push('(a file that was already modified changed again)');
  return changed;
}
