/**
 * A paired room's level in words, for the student's page and the seats table: "A with partner S
 * (a sibling from its own seeds)", the partner's words from the room's preset (Preset.partners).
 * A room with one level says "the peer arm", as before levels.
 */
import { PRESETS, getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { levelPair, peerLevels } from '../../room/levels';

/** Whether the room hands out several levels (else every pair trains the one peer arm). */
export function hasLevels(spec: ExperimentSpec): boolean {
  return peerLevels(spec).length > 1;
}

/**
 * The preset's words on a partner ("a sibling from its own seeds"; null: none): the room's preset's,
 * or, for an edited experiment (its steps shortened, say), those of a preset whose member of that
 * id is the very same member (the words describe the member, which the edit left as it was).
 */
export function partnerWords(spec: ExperimentSpec, preset: string | null, partner: string): string | null {
  const own = preset ? getPreset(preset)?.partners?.[partner] : undefined;
  if (own) return own;
  const member = JSON.stringify(spec.members.find((m) => m.id === partner) ?? null);
  for (const p of Object.values(PRESETS)) {
    const words = p.partners?.[partner];
    if (words && JSON.stringify(p.spec.members.find((m) => m.id === partner) ?? null) === member) return words;
  }
  return null;
}

/** "A with partner S (a sibling from its own seeds)"; the level's id where the spec has no such arm. */
export function levelPhrase(spec: ExperimentSpec, preset: string | null, level: string): string {
  const pair = levelPair(spec, level);
  if (!pair) return level;
  const words = partnerWords(spec, preset, pair.partner);
  return `${pair.anchor} with partner ${pair.partner}${words ? ` (${words})` : ''}`;
}

/** "A with partner S", for the seats table (the level's id where the spec has no such arm). */
export function levelShort(spec: ExperimentSpec, level: string): string {
  const pair = levelPair(spec, level);
  return pair ? `${pair.anchor} with partner ${pair.partner}` : level;
}
