/**
 * The scoreboard's numbers, one row per arm: held-out pass@1 at the start (the warm-started
 * members, before RL) and now (the latest evaluation), the change, the latest label-free reward,
 * and whether a member collapsed. Each is the mean over the arm's members of the value the charts
 * draw (pass@1 chart, collapse chart), so the two always agree. Pure.
 *
 * Collapsed comes from the run summary the core keeps (summary.ts -> metrics/dynamics.ts
 * collapseStep, the lab's one definition, in words from collapseRule).
 */
import type { BaseEvaluation, RunSummary } from '../../core/experiment/events';
import { collapseRule } from '../../core/metrics/dynamics';
import { type RunSeries, lastValue } from '../store/series';
import { type Direction, directionOf } from './changeRule';

export interface ScoreArm {
  id: string;
  scheme: string;
  members: readonly string[];
}

export interface ScoreRow {
  armId: string;
  scheme: string;
  memberIds: string[];
  /** Mean base (warm-started) held-out pass@1 of the members; null before the base evaluation. */
  start: number | null;
  /** Mean latest held-out pass@1; null until every member has had an RL evaluation. */
  now: number | null;
  change: number | null;
  /** Mean label-free reward of the latest step; null before the first step. */
  reward: number | null;
  /** Members that collapsed and the step; null when there is no summary to tell (no run yet). */
  collapsed: { memberId: string; step: number }[] | null;
}

function mean(values: (number | null | undefined)[]): number | null {
  if (values.length === 0 || values.some((v) => v == null || !Number.isFinite(v))) return null;
  return (values as number[]).reduce((a, b) => a + b, 0) / values.length;
}

export function scoreRows(arms: readonly ScoreArm[], series: RunSeries, base: readonly BaseEvaluation[], summary: RunSummary | null): ScoreRow[] {
  return arms.map((arm) => {
    const s = series.arms.find((a) => a.armId === arm.id);
    const ids = s ? arm.members.filter((id) => s.members[id]) : [];
    const memberIds = ids.length ? ids : [...arm.members];
    const start = base.length ? mean(memberIds.map((id) => base.find((b) => b.memberId === id)?.passAt1)) : null;
    const now = s ? mean(memberIds.map((id) => lastValue(s.members[id]?.evalPassAt1))) : null;
    const reward = s ? mean(memberIds.map((id) => lastValue(s.members[id]?.reward))) : null;
    const sumArm = summary?.arms.find((a) => a.id === arm.id);
    const collapsed =
      sumArm && sumArm.members.length
        ? sumArm.members.filter((m) => m.collapseStep != null).map((m) => ({ memberId: m.id, step: m.collapseStep as number }))
        : null;
    return {
      armId: arm.id,
      scheme: arm.scheme,
      memberIds,
      start,
      now,
      change: start != null && now != null ? now - start : null,
      reward,
      collapsed,
    };
  });
}

/**
 * Which way the scoreboard colours a change: the page's one rule (changeRule.ts), so a −0.01 the
 * workshop card reads "hold" is not painted as a fall. null: no change yet.
 */
export function changeDirection(change: number | null): Direction | null {
  return change == null || !Number.isFinite(change) ? null : directionOf(change);
}

/** 2 decimals with a sign: "+0.05", "−0.13" (a true minus), "0.00"; "—" for none. */
export function fmtSigned(v: number | null): string {
  if (v == null || !Number.isFinite(v)) return '—';
  const s = Math.abs(v).toFixed(2);
  if (s === '0.00') return '0.00';
  return v > 0 ? `+${s}` : `−${s}`;
}

export function fmt2(v: number | null): string {
  return v == null || !Number.isFinite(v) ? '—' : v.toFixed(2);
}

/** "yes, A at step 40; B at step 52", "no" or "—" (not known yet). */
export function collapsedText(row: Pick<ScoreRow, 'collapsed'>): string {
  if (row.collapsed == null) return '—';
  if (row.collapsed.length === 0) return 'no';
  return `yes: ${row.collapsed.map((c) => `${c.memberId} at step ${c.step}`).join('; ')}`;
}

/** What "collapsed" means, in words, for the tooltip and the note under the scoreboard. */
export function collapseDefinition(delta: number): string {
  return `Collapsed: ${collapseRule(delta)}`;
}

/** The scoreboard as lines of text (the report PNG draws them). */
export function scoreboardLines(rows: readonly ScoreRow[]): string[] {
  return rows.map(
    (r) =>
      `${r.armId} (${r.scheme}; ${r.memberIds.join(', ')}) · pass@1 ${fmt2(r.start)} → ${fmt2(r.now)} (${fmtSigned(r.change)}) · ` +
      `reward ${fmt2(r.reward)} · collapsed: ${collapsedText(r)}`,
  );
}

/** An arm's scoreboard row as the mean over several seeds' runs ("Run N seeds"). */
export interface SeedMeanRow {
  armId: string;
  scheme: string;
  seeds: number;
  start: number | null;
  now: number | null;
  change: number | null;
  reward: number | null;
  /** In how many of the seeds a member of the arm collapsed. */
  collapsedIn: number;
}

/**
 * Per arm, the mean over the seeds that ran it of each number (null unless every one of them has
 * it). Arms in the order they first appear: the runs of a paired class room of several levels
 * have one arm each, a different one per pair, and each arm's row counts its own runs (`seeds`).
 */
export function seedMeanRows(perSeed: readonly (readonly ScoreRow[])[]): SeedMeanRow[] {
  if (perSeed.length === 0) return [];
  const firsts: ScoreRow[] = [];
  for (const rs of perSeed) for (const r of rs) if (!firsts.some((f) => f.armId === r.armId)) firsts.push(r);
  return firsts.map((first) => {
    const rows = perSeed.map((rs) => rs.find((r) => r.armId === first.armId)).filter((r): r is ScoreRow => r !== undefined);
    const of = (k: 'start' | 'now' | 'change' | 'reward') => mean(rows.map((r) => r[k]));
    return {
      armId: first.armId,
      scheme: first.scheme,
      seeds: rows.length,
      start: of('start'),
      now: of('now'),
      change: of('change'),
      reward: of('reward'),
      collapsedIn: rows.filter((r) => r.collapsed && r.collapsed.length > 0).length,
    };
  });
}
