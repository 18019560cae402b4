/**
 * `npm run trl-check -- --models lab`: the lab's own warm-started members handed to TRL. A member's
 * weights are the lab's warm start for the seed, the file the lab's own run of that seed starts
 * RL from: the shipped one (public/warmstarts, or its room folder) when there is one, else trained
 * here on wasm by the lab's code into `dir` (the same weights `npm run warmstarts` would ship).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { keyOfFields, SHIPPED_BACKEND, warmStartInputs, warmStartKeyFields } from '../../src/core/experiment/warmStartCache';
import type { ExperimentSpec, MemberSpec } from '../../src/core/experiment/spec';
import { ROOM_WARM_START_DIR, SHIPPED_WARM_START_DIR, warmStartFileName } from '../../src/engine/warmStartNode';

/** The lab's stored warm start of `member` in a run of `spec` (its seed), or null. */
export function storedWarmStart(spec: ExperimentSpec, member: MemberSpec, dirs: string[]): { key: string; path: string | null } {
  const fields = warmStartKeyFields(spec, member, warmStartInputs(spec).maxLen, SHIPPED_BACKEND);
  const key = keyOfFields(fields);
  for (const dir of dirs) {
    const path = join(dir, warmStartFileName(key));
    if (existsSync(path)) return { key, path };
  }
  return { key, path: null };
}

/** The path of the member's lab warm-start file for `spec`'s seed, training it into `dir` when none is stored. */
export async function labWarmStartFile(spec: ExperimentSpec, member: MemberSpec, dir: string, log: (line: string) => void = () => {}): Promise<string> {
  const dirs = [SHIPPED_WARM_START_DIR, ROOM_WARM_START_DIR, join(dir, storedWarmStart(spec, member, []).key)];
  const found = storedWarmStart(spec, member, dirs);
  if (found.path) return found.path;
  log(`seed ${spec.seed} member ${member.id}: no stored lab warm start (${found.key}); training it on wasm`);
  const { initNodeBackend } = await import('../../src/engine/node-backend');
  const { buildWarmStarts } = await import('../warmstarts/warmstarts-lib');
  await initNodeBackend('wasm');
  const fields = warmStartKeyFields(spec, member, warmStartInputs(spec).maxLen, SHIPPED_BACKEND);
  // A folder of its own: buildWarmStarts keeps only its plan's files in the folder it is given.
  const own = join(dir, found.key);
  await buildWarmStarts(own, [{ key: found.key, fields, spec, member, users: [`${member.id} seed ${spec.seed}`] }]); // a miss throws, naming the member
  const path = join(own, warmStartFileName(found.key));
  if (!existsSync(path)) throw new Error(`seed ${spec.seed} member ${member.id}: the lab's warm start was not written to ${path}`);
  return path;
}
