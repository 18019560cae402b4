/**
 * A paired room's level in words, for the student's page and the seats table: "A with partner S
 * (a sibling from its own seeds)", the partner's words from the room's preset (Preset.partners).
 * A room with one level says "the peer arm", as before levels.
 */
import { getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { levelPair, peerLevels } from '../../room/levels';

/** Whether the room hands out several levels (else every pair trains the one peer arm). */
export function hasLevels(spec: ExperimentSpec): boolean {
  return peerLevels(spec).length > 1;
}

/** The preset's words on a partner ("a sibling from its own seeds"; null: none). */
export function partnerWords(preset: string | null, partner: string): string | null {
  return (preset ? getPreset(preset)?.partners?.[partner] : undefined) ?? null;
}

/** "A with partner S (a sibling from its own seeds)"; the level's id where the spec has no such arm. */
export function levelPhrase(spec: ExperimentSpec, preset: string | null, level: string): string {
  const pair = levelPair(spec, level);
  if (!pair) return level;
  const words = partnerWords(preset, pair.partner);
  return `${pair.anchor} with partner ${pair.partner}${words ? ` (${words})` : ''}`;
}
