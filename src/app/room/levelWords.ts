/**
 * A paired room's level in words, for the student's page and the seats table: "A with partner S
 * (a sibling from its own seeds)", the partner's words from the room's preset (Preset.partners).
 * A room with one level says "the peer arm", as before levels.
 */
import { PRESETS, getPreset } from '../../core/experiment/presets';
import type { ExperimentSpec } from '../../core/experiment/spec';
import { levelPair, peerLevels, roomLevelList } from '../../room/levels';

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

/**
 * What the seats of a room of `spec` train, for the create panel ("The room will run X: ..."):
 * the whole experiment per browser; or one partner level per pair, or per browser in an unpaired
 * room of several levels (roomLevelList), handed out in turn.
 */
export function roomPlanWords(spec: ExperimentSpec, pairing: boolean): string {
  const levels = roomLevelList(spec, pairing);
  const pairs = levels.map((l) => levelPair(spec, l)).filter((p) => p !== null);
  const anchor = pairs[0]?.anchor ?? 'A';
  const turns = `${pairs.map((p) => p.partner).join(', ')}, in turn`;
  if (pairing) return levels.length > 1 ? `each pair of browsers trains ${anchor} with one partner (${turns}), with a seed of its own` : "each pair of browsers trains the peer arm's two members, one each, with a seed of its own";
  if (levels.length > 0) return `each student's browser trains ${anchor} with one partner (${turns}), with a seed of its own`;
  return "every student's browser trains it with a seed of its own";
}
