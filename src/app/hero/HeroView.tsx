/**
 * The phenomenon at a glance, under the run bar: one large chart per label-free arm
 * (self first, then the peer arm), each its label-free reward against its held-out pass@1, with
 * the oracle arm's pass@1 as the ceiling and the preset's reference run dashed behind. A collapse
 * reads as scissors: the reward line climbs while the green pass@1 falls. The detailed panels are
 * one click away (they unfold and scroll into view). The lab's page draws at most MAX_HERO_ARMS
 * charts and its key names the arms it leaves out and where to see them; the projector view draws
 * every arm the class trained, in rows of at most four (heroLines.ts heroGrid).
 */
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { ChartCard } from '../charts/ChartCard';
import { LineSwatch } from '../charts/LineSwatch';
import { CLASS_DASH, COMPARE_DASH } from '../charts/chartModel';
import type { SeedUnit } from '../charts/seedAggregate';
import { withAlpha } from '../lib/colors';
import { bandUnit } from '../store/roomSlice';
import { TRUTH_COLOR } from '../charts/seriesDefs';
import { useRunView } from '../charts/useRunView';
import { SCHEME_COLORS } from '../lib/colors';
import { useLab } from '../store';
import type { RunSeries } from '../store/series';
import { HERO_LABELS, type HeroArm, ceilingArm, classHeroArms, heroArms, heroGrid, heroLeftOut, heroLines } from './heroLines';
import { HeroStart } from './HeroStart';
import { HeroRestored } from './HeroRestored';
import { openPanel } from './openPanel';
import { setProjector } from '../room/projectorActions';
import { ClaimSentences } from '../run/ClaimSentences';
import { VerdictPanel } from '../run/VerdictPanel';
import { pairedPeerArm } from '../../core/experiment/memberParts';
import { runsByLevel } from '../../room/levels';
import { GlossaryTerm } from '../GlossaryTerm';

const SCHEME_WORDS: Record<string, string> = {
  self: 'rewarded by its own majority vote',
  'self-soft': 'rewarded by how often its answer is among its own votes',
  peer: "rewarded by its partner's majority vote",
  ring: "rewarded by the next model's vote",
  cohort: "rewarded by the rest of the cohort's vote",
  teacher: "rewarded by a frozen teacher's vote",
  entropy: 'rewarded for low entropy',
  certainty: 'rewarded for self-certainty',
};

export const DETAIL_LINKS: readonly [string, string][] = [
  ['pseudo', '1. Pseudo-labels'],
  ['disagreement', '2. Disagreement'],
  ['collapse', '3. Reward collapse'],
  ['accuracy', '4. Held-out accuracy'],
  ['inspector', '5. Rollouts'],
  ['glossary', 'Glossary'],
];

/** The hero charts' height: large, yet the whole view fits the first screen of a 1280x720 window. */
export function heroChartHeight(viewportHeight: number, presenter: boolean): number {
  const h = viewportHeight * (presenter ? 0.38 : 0.4) - 20;
  return Math.round(Math.max(150, Math.min(360, h)));
}

/**
 * The projector view's charts (ProjectorView.tsx): the window less its header, the heading and the
 * key, shared by `rows` rows of charts (each row also has its charts' headings and buttons).
 */
export function classChartHeight(viewportHeight: number, rows = 1): number {
  const all = Math.max(150, Math.min(640, viewportHeight - 300));
  return Math.round(Math.max(120, (all - (rows - 1) * 70) / rows));
}

function useViewportHeight(): number {
  const [h, setH] = useState(() => (typeof window === 'undefined' ? 800 : window.innerHeight));
  useEffect(() => {
    const on = () => setH(window.innerHeight);
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return h;
}

/** `compact`: the arm's name alone over its chart (the projector's rows of charts; the key says each scheme once). */
function HeroChart({ armId, scheme, oracleId, height, compact }: { armId: string; scheme: string; oracleId: string | null; height: number; compact: boolean }) {
  const { styles } = useRunView();
  const build = useCallback((r: RunSeries) => heroLines(r, armId, oracleId, styles), [armId, oracleId, styles]);
  return (
    <div className="hero-chart" data-testid={`hero-${armId}`}>
      <h3 title={compact ? `${armId}: ${SCHEME_WORDS[scheme] ?? scheme}` : undefined}>
        <span className="arm-swatch" style={{ background: styles.arm[armId] }} aria-hidden="true" />
        {armId} {!compact && <span className="sub">{SCHEME_WORDS[scheme] ?? scheme}</span>}
      </h3>
      <ChartCard
        testId={`chart-hero-${armId}`}
        title={`Arm ${armId}: label-free reward and held-out pass@1`}
        yLabel="reward / pass@1"
        axis="rate"
        build={build}
        height={height}
        exactHeight
        noLegend
      />
    </div>
  );
}

/** How the class is drawn beside (or without) this browser's run: "you" and "class: mean of N". */
interface ClassKey {
  /** This page draws its own run too (a student's): "you" is keyed. */
  you: boolean;
  runs: number;
  /** The fewest and most runs that trained one drawn arm (a room of levels: each run trains one arm). */
  perArm: [number, number];
  unit: SeedUnit;
}

/**
 * Which arms the charts are: on the projector every arm the class trained (said where the charts are
 * rows of compact ones); on the lab's page the
 * first three, the others named with where to see them (a presenter's room: the projector view,
 * which draws every arm of the class; otherwise panel 3, a chart per arm of this page's run).
 */
function ArmsNote({ shown, leftOut, klass }: { shown: readonly HeroArm[]; leftOut: readonly HeroArm[]; klass: { compact: boolean } | null }) {
  const presenter = useLab((s) => s.room.role === 'presenter' && s.room.info != null);
  if (klass) {
    // One row of charts, each headed by its scheme's words, needs no note (a 1280x720 projector has no line to spare).
    if (!klass.compact) return null;
    // Rows of compact charts name their arm only: each scheme's words once here ("peer-S, peer-T: rewarded by ...").
    const schemes = [...new Set(shown.map((a) => a.scheme))].map((scheme) => `${shown.filter((a) => a.scheme === scheme).map((a) => a.id).join(', ')}: ${SCHEME_WORDS[scheme] ?? scheme}`);
    return (
      <li data-testid="hero-key-arms" data-left-out="0">
        All {shown.length} arms the class trained, a chart each ({schemes.join('; ')}).
      </li>
    );
  }
  if (leftOut.length === 0) return null;
  return (
    <li data-testid="hero-key-arms" data-left-out={leftOut.length}>
      {shown.length} of {shown.length + leftOut.length} arms drawn here; {leftOut.map((a) => a.id).join(', ')}:{' '}
      {presenter ? (
        <>
          the{' '}
          <button type="button" className="link" data-testid="hero-key-more" onClick={() => setProjector(true)}>
            projector view
          </button>{' '}
          draws every arm of the class
        </>
      ) : (
        <>
          <button type="button" className="link" data-testid="hero-key-more" onClick={() => openPanel('collapse')}>
            3. Reward collapse
          </button>{' '}
          has a chart per arm
        </>
      )}
    </li>
  );
}

/** The fewest and most of `results` that trained one of `arms`. */
function runsPerArm(arms: readonly { id: string }[], results: readonly { record: { spec: { arms: readonly { id: string }[] } } }[]): [number, number] {
  const counts = arms.map((a) => results.filter((r) => r.record.spec.arms.some((x) => x.id === a.id)).length);
  return counts.length ? [Math.min(...counts), Math.max(...counts)] : [results.length, results.length];
}

function HeroKey({
  arms,
  oracle,
  reference,
  klass,
  note,
}: {
  arms: { id: string; color: string }[];
  oracle: boolean;
  reference: string | null;
  klass: ClassKey | null;
  note: ReactNode;
}) {
  const color = arms[0]?.color ?? 'currentColor';
  const plural = (n: number) => `${klass!.unit}${n === 1 ? '' : 's'}`;
  // Each drawn arm's mean is over the runs that trained it: all of them, or in a room of levels its own.
  const units = !klass
    ? ''
    : klass.perArm[1] === klass.runs && klass.perArm[0] === klass.runs
      ? `${klass.runs} ${plural(klass.runs)}`
      : `the ${klass.unit}s that trained the arm (${klass.perArm[0] === klass.perArm[1] ? klass.perArm[0] : klass.perArm.join('-')} each, ${klass.runs} in all)`;
  return (
    <ul className="hero-key" aria-label="Key to the charts above" data-testid="hero-key">
      {note}
      {klass?.you && (
        <li data-testid="hero-key-you">
          <LineSwatch entry={{ color, dash: [], width: 3 }} />
          you: this browser's run
        </li>
      )}
      {klass && (
        <li data-testid="hero-key-class">
          <LineSwatch entry={{ color, dash: klass.you ? CLASS_DASH : [], width: 2.5 }} />
          class: mean of {units}
        </li>
      )}
      {klass && (
        <li>
          <LineSwatch entry={{ color: withAlpha(color, 0.25), dash: [], width: 1, band: true }} />
          the class's range; each {klass.unit} faint
        </li>
      )}
      <li>
        {arms.map((a) => (
          <LineSwatch key={a.id} entry={{ color: a.color, dash: [], width: 3 }} />
        ))}
        {HERO_LABELS.reward} (the arm's colour)
      </li>
      <li>
        <LineSwatch entry={{ color: TRUTH_COLOR, dash: [], width: 3, points: true }} />
        {HERO_LABELS.pass}: what is actually correct
      </li>
      {oracle && (
        <li>
          <LineSwatch entry={{ color: SCHEME_COLORS.oracle, dash: [], width: 2 }} />
          oracle arm's pass@1: the ceiling
        </li>
      )}
      {reference && (
        <li>
          <LineSwatch entry={{ color: 'currentColor', dash: COMPARE_DASH, width: 1.5 }} />
          {reference}
        </li>
      )}
    </ul>
  );
}

/**
 * `classView`: the projector view's (ProjectorView.tsx): the class's runs alone, the arms they
 * trained (a paired room's pairs: the peer arm), charts as tall as the window allows, and none of
 * this browser's own run (its Start, its sentences, the detail links).
 */
export function HeroView({ classView = false }: { classView?: boolean }) {
  const { spec, styles } = useRunView();
  const presenter = useLab((s) => s.ui.presenter);
  const smoothing = useLab((s) => s.ui.smoothing);
  const compare = useLab((s) => s.compare);
  const results = useLab((s) => s.room.results);
  const unit = useLab(bandUnit);
  const student = useLab((s) => s.room.role === 'student');
  const viewport = useViewportHeight();
  const roomArms = useLab((s) => s.room.info?.spec.arms ?? null);
  const byLevel = useLab((s) => (s.room.info ? runsByLevel(s.room.info) : false));
  // A paired room's runs (and an unpaired room's of levels) are each one level's peer arm: a
  // student's page draws the arm its seat trains, the presenter's the arms the class's runs
  // trained, never empty charts of arms nobody in the room trains (self, oracle).
  const seatArm = useLab((s) => (s.room.role === 'student' && s.room.info && runsByLevel(s.room.info) ? (s.room.seat?.level ?? (s.room.info ? pairedPeerArm(s.room.info.spec)?.id : null) ?? null) : null));
  const pagedArms = useMemo(() => {
    if (!byLevel || !roomArms) return spec.arms;
    if (seatArm) return roomArms.filter((a) => a.id === seatArm);
    return results.length ? classHeroArms(roomArms, results.map((r) => r.record.spec.arms)).arms : spec.arms;
  }, [byLevel, roomArms, seatArm, results, spec.arms]);
  // The projector: every arm of the room's experiment that a run of the class trained (a pair's
  // run is its peer arm alone), none left out; the lab's page: the first MAX_HERO_ARMS, the rest named.
  const klassArms = classView ? classHeroArms(roomArms ?? spec.arms, results.map((r) => r.record.spec.arms)) : null;
  const arms = klassArms?.arms ?? heroArms(pagedArms);
  const oracleId = klassArms ? klassArms.ceiling : ceilingArm(pagedArms);
  const grid = classView ? heroGrid(arms.length) : { cols: arms.length, rows: 1 };
  const height = classView ? classChartHeight(viewport, grid.rows) : heroChartHeight(viewport, presenter);
  // Rows of narrow charts: the arm's name alone over each (a heading of one line keeps a row's charts level).
  const compact = classView && grid.rows > 1;
  const klass: ClassKey | null = results.length && unit !== 'seed' ? { you: student, runs: results.length, perArm: runsPerArm(arms, results), unit } : null;
  const reference = compare.length ? `${compare.map((c) => c.label).join(', ')} (dashed)` : null;
  if (arms.length === 0) return null;
  return (
    <section className={`hero${classView ? ' hero-class' : ''}`} aria-labelledby="hero-title" data-testid="hero" data-arms={arms.map((a) => a.id).join('|')}>
      <div className="hero-head">
        <h2 id="hero-title">{classView ? "The class: what the reward says, and what is true" : 'What the reward says, and what is true'}</h2>
        <p className="hero-caption">
          {classView
            ? 'No model sees the answers: each is rewarded when it agrees with a majority vote. When reward climbs while held-out pass@1 falls, the model is fooling itself.'
            : null}
          {classView ? null : (
            <>
              {/* On a phone only the middle sentence stays: it says what to watch. */}
              <span className="hero-more">
                No model sees the answers: each is rewarded when it agrees with a <GlossaryTerm term="Majority vote (maj@G)">majority vote</GlossaryTerm>, and{' '}
                <GlossaryTerm term="GRPO" /> makes its rewarded answers more likely.{' '}
              </span>
              <span className="hero-watch" data-testid="hero-watch">
                When reward climbs while <GlossaryTerm term="Held-out">held-out</GlossaryTerm> <GlossaryTerm term="pass@1" /> falls, the model is fooling itself.
              </span>
              <span className="hero-more">
                {' '}
                Each line is the mean of an arm's models
                {smoothing > 0 ? `, smoothed ${smoothing.toFixed(1)} (raw values faint; pass@1 dots never smoothed)` : ''}.
              </span>
            </>
          )}
        </p>
      </div>
      {!classView && <HeroStart />}
      {!classView && <HeroRestored />}
      {!classView && <VerdictPanel />}
      <div className="hero-charts" style={{ ['--hero-cols' as string]: String(grid.cols) }}>
        {arms.map((a) => (
          <HeroChart key={a.id} armId={a.id} scheme={a.scheme} oracleId={oracleId} height={height} compact={compact} />
        ))}
      </div>
      <HeroKey
        arms={arms.map((a) => ({ id: a.id, color: styles.arm[a.id] }))}
        oracle={oracleId != null}
        reference={reference}
        klass={klass}
        note={<ArmsNote shown={arms} leftOut={classView ? [] : heroLeftOut(pagedArms)} klass={classView ? { compact } : null} />}
      />
      {!classView && <ClaimSentences />}
      {!classView && (
        <nav className="hero-links" aria-label="Detailed panels" data-testid="hero-links">
          <span className="sub">Details:</span>
          {DETAIL_LINKS.map(([id, name]) => (
            <button key={id} type="button" className="link" data-testid={`open-${id}`} onClick={() => openPanel(id)}>
              {name}
            </button>
          ))}
        </nav>
      )}
    </section>
  );
}
