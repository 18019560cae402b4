/**
 * The presenter's projector view of a room: the whole window is the class.
 * Before Start, a large join QR code and address with the count of browsers joined; once the room
 * runs, the class's hero charts (mean, band, each browser faint), the class scoreboard and the
 * claims over the class on one screen. None of the presenter's own run controls (no run bar, no
 * experiment panel, no keyboard shortcuts): the presenter's browser trains nothing here. Seats and
 * room controls (Start, Close, Export, the join link for latecomers) are in a side drawer. The
 * view is remembered per room (projector.ts), so a reload of the presenter's page reopens it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { RunSummary } from '../../core/experiment/events';
import { bandUnit } from '../store/roomSlice';
import { classHeadline, projectorTerms } from './headline';
import { roomLevelList } from '../../room/levels';
import type { RoomInfo } from '../../room/protocol';
import { ErrorBoundary } from '../ErrorBoundary';
import { HeroView } from '../hero/HeroView';
import { OverlapPanel } from '../panels/OverlapPanel';
import { isOverlapSpec } from '../panels/overlapPoints';
import { joinCodeOf, showJoinCode } from '../../room/joinCode';
import { Scoreboard } from '../run/Scoreboard';
import { SeedClaims } from '../run/SeedClaims';
import { ClassVerdict } from '../run/VerdictPanel';
import { useLab } from '../store';
import { classProgress } from './classProgress';
import { Presenter } from './RoomPanel';
import { RoomQr } from './RoomQr';
import { codeOrigin } from './roomLink';
import { ProjectorReveal } from './ProjectorReveal';
import { revealQuestion } from '../reference/reveal';
import { startReferences } from '../reference/referenceStore';
import { statusText } from './RoomStatusLine';
import { setProjector } from './projectorActions';
import { room } from './roomController';
import { connectedCount } from './seatConnection';
import './projector.css';

/** Before Start: the code and address as large as the screen allows, and who has joined. */
function JoinScreen({ info, link }: { info: RoomInfo | null; link: string | null }) {
  const seats = info?.seats.length ?? 0;
  const connected = info?.seats.filter((x) => x.connected).length ?? 0;
  // An unpaired room of levels: each laptop trains A with one of them (src/room/levels.ts).
  const levels = info && !info.pairing ? roomLevelList(info.spec, false).length : 0;
  const online = useLab((s) => s.room.status === 'online');
  const presetId = useLab((s) => s.presetId);
  // A link students' devices cannot open (this computer only): said loudly, and not projected until the presenter says so.
  const warning = useLab((s) => s.room.linkWarning);
  const [projectAnyway, setProjectAnyway] = useState(false);
  const locked = info?.locked ?? false;
  const hold = warning != null && !projectAnyway;
  return (
    <section className="projector-join" aria-label={locked ? 'The room is locked' : 'Join the class'} data-testid="projector-join" data-locked={locked ? 'yes' : 'no'}>
      {hold ? (
        <div role="alert" className="projector-warning" data-testid="projector-link-warning">
          <h2>Students cannot open this address</h2>
          <p>{warning}</p>
          <button type="button" data-testid="projector-link-anyway" onClick={() => setProjectAnyway(true)}>
            Project it anyway
          </button>
        </div>
      ) : link && !locked ? (
        <RoomQr link={link} />
      ) : !link ? (
        <p>Waiting for the room server…</p>
      ) : null}
      <div className="projector-join-words">
        {locked ? (
          <>
            <h2>The room is locked</h2>
            <p data-testid="projector-locked">No new student can join; students already seated can come back. Unlock it under Seats and room.</p>
          </>
        ) : (
          <>
            <h2>Join the class</h2>
            <p>Scan the code with a phone, or open this address on a laptop on the same network:</p>
            {link && !hold && (
              <p className="projector-address" data-testid="projector-address">
                {link}
              </p>
            )}
            {link && !hold && info && (
              <p className="projector-code-line">
                Or open <strong>{codeOrigin(link)}</strong>, choose Class room and type the code{' '}
                <strong className="projector-code" data-testid="projector-code">
                  {showJoinCode(joinCodeOf(info.id))}
                </strong>
              </p>
            )}
          </>
        )}
        <p className="projector-count" data-testid="projector-count" data-seats={seats}>
          {seats} joined{!online && seats > 0 ? ` (${connectedCount({ seats: info!.seats }, false)})` : seats > connected ? ` (${connected} connected now)` : ''}
        </p>
        {info?.pairing && (
          <p data-testid="projector-pairs">
            Students are paired in the order they join: the first two are one pair, the next two the next. Each of a pair trains one of the peer arm's two models, and
            each model learns from its partner's answers.
          </p>
        )}
        {levels > 0 && (
          <p data-testid="projector-pairs">
            Each laptop trains model A with one of {levels} partners, handed out in the order laptops join; some partners are more like A than others.
            Each model learns from its partner's answers, and each laptop adds one point to the question below.
          </p>
        )}
        <p className="projector-question" data-testid="projector-question">
          <strong>Predict first.</strong> {revealQuestion(presetId)}
        </p>
        <button type="button" className="primary" data-testid="projector-start" disabled={!online || seats === 0} onClick={() => room.startForEverybody()}>
          Start for everybody
        </button>
      </div>
    </section>
  );
}

/** The story in one or two sentences, from the class's numbers (headline.ts). */
function Headline() {
  const results = useLab((s) => s.room.results);
  const unit = useLab(bandUnit);
  const text = useMemo(
    () =>
      classHeadline(
        results.map((r) => r.summary).filter((x): x is RunSummary => x != null),
        unit,
        results.some((r) => !r.finished),
      ),
    [results, unit],
  );
  if (!text) return null;
  return (
    <p className="projector-headline" data-testid="projector-headline">
      {text}
    </p>
  );
}

/** The words on screen, each defined once. */
function Terms() {
  const results = useLab((s) => s.room.results);
  const spec = useLab((s) => s.room.info?.spec ?? null);
  const terms = useMemo(() => {
    // The schemes of the arms the class's runs trained (before any run: the room's experiment's).
    const arms = results.length ? results.flatMap((r) => r.record.spec.arms) : (spec?.arms ?? []);
    return projectorTerms(new Set(arms.map((a) => a.scheme)));
  }, [results, spec]);
  return (
    <section className="panel projector-terms" aria-label="The words on this screen" data-testid="projector-terms">
      <h2>The words on this screen</h2>
      <dl>
        {terms.map(([term, meaning]) => (
          <div key={term}>
            <dt>{term}:</dt> <dd>{meaning}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

/** The presenter's own run, if this laptop trains one: its solid lines on the class's charts, labelled. */
function OwnRunNote() {
  const own = useLab((s) => (s.run.runId > 0 && s.run.phase !== 'idle' ? (s.run.spec?.seed ?? null) : null));
  if (own === null) return null;
  return (
    <p className="projector-own" data-testid="projector-own-run">
      Solid lines: the teacher&apos;s own run on this laptop (seed {own}), not one of the class&apos;s runs.
    </p>
  );
}

function ClassScreen() {
  // A room of an overlap experiment: its dose-response panel gets a column of its own (on a 1080p
  // projector), so it fits the screen beside the charts and the scoreboard.
  const overlap = useLab((s) => isOverlapSpec(s.room.info?.spec ?? null));
  const overlapPanel = (
    <ErrorBoundary where="The class's overlap points">
      <OverlapPanel />
    </ErrorBoundary>
  );
  return (
    <>
      <Headline />
      <OwnRunNote />
      <ErrorBoundary where="The class's verdict">
        <ClassVerdict />
      </ErrorBoundary>
      <div className={`projector-class${overlap ? ' with-overlap' : ''}`} data-testid="projector-class">
        <ErrorBoundary where="The class's charts">
          <HeroView classView />
        </ErrorBoundary>
        <div className="projector-side">
          <ErrorBoundary where="The reference run">
            <ProjectorReveal />
          </ErrorBoundary>
          <ErrorBoundary where="The class scoreboard">
            <Scoreboard classOnly />
          </ErrorBoundary>
          <ErrorBoundary where="The claims over the class">
            <SeedClaims compact />
          </ErrorBoundary>
          <Terms />
        </div>
        {/* Only for a room of an overlap experiment: the class's points, one per run and level. */}
        {overlap && <div className="projector-third">{overlapPanel}</div>}
      </div>
    </>
  );
}

export function ProjectorView() {
  const r = useLab((s) => s.room);
  const [drawer, setDrawer] = useState(false);
  // The page's reference bar is not on screen here: the projector keeps the reference in step itself.
  useEffect(() => startReferences(), []);
  // Presenter type on a 1080p projector (the charts' axis numbers 16 px, not 12: read from the back of
  // a room); a 720p one keeps the page's type, or the class would not fit its one screen.
  useEffect(() => {
    const before = useLab.getState().ui.presenter;
    const fit = () => useLab.getState().setPresenter(before || window.innerWidth >= 1600);
    fit();
    window.addEventListener('resize', fit);
    return () => {
      window.removeEventListener('resize', fit);
      useLab.getState().setPresenter(before);
    };
  }, []);
  const drawerRef = useRef<HTMLElement>(null);
  // The drawer takes the focus when it opens (keyboard users land in it), Escape closes it.
  useEffect(() => {
    if (!drawer) return;
    drawerRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setDrawer(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [drawer]);
  const info = r.info;
  const open = !info || info.status === 'open';
  return (
    <div className="projector" data-testid="projector" data-room-status={info?.status ?? 'none'}>
      <header className="projector-head">
        <h1>{info ? info.name : 'Class room'}</h1>
        <p role="status" className="projector-progress" data-testid="projector-progress">
          {info && (r.status === 'online' || info.status === 'closed') ? classProgress(info) : statusText(r)}
        </p>
        <div className="projector-buttons">
          <button type="button" aria-expanded={drawer} aria-controls="projector-drawer" data-testid="projector-drawer-toggle" onClick={() => setDrawer(!drawer)}>
            Seats and room
          </button>
          <button type="button" data-testid="projector-exit" title="Back to the lab's page, with this room's panel" onClick={() => setProjector(false)}>
            Leave projector view
          </button>
        </div>
      </header>
      {open ? <JoinScreen info={info} link={r.link} /> : <ClassScreen />}
      {drawer && (
        <aside id="projector-drawer" className="projector-drawer" aria-label="Seats and room controls" data-testid="projector-drawer" tabIndex={-1} ref={drawerRef}>
          <div className="projector-drawer-head">
            <h2>Seats and room</h2>
            <button type="button" data-testid="projector-drawer-close" onClick={() => setDrawer(false)}>
              Close
            </button>
          </div>
          <ErrorBoundary where="The class room">
            <Presenter />
          </ErrorBoundary>
        </aside>
      )}
    </div>
  );
}
