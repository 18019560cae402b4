/**
 * Cohort Lab: the experiment on the left, the run bar on top, the five panels on the right.
 * The page talks to the training worker only through trainingWorker.ts (protocol.ts).
 */
import { useEffect, useLayoutEffect } from 'react';
import './styles.css';
import { ErrorBoundary } from './ErrorBoundary';
import { Glossary } from './Glossary';
import { ExperimentPanel } from './controls/ExperimentPanel';
import { AccuracyPanel } from './panels/AccuracyPanel';
import { CollapsePanel } from './panels/CollapsePanel';
import { DisagreementPanel } from './panels/DisagreementPanel';
import { OverlapPanel } from './panels/OverlapPanel';
import { InspectorPanel } from './panels/InspectorPanel';
import { PseudoLabelPanel } from './panels/PseudoLabelPanel';
import { Notices } from './run/Notices';
import { WarmStartCurves } from './run/WarmStartCurves';
import { ImportNotices } from './run/ImportNotices';
import { PwaNotices } from './pwa/PwaNotices';
import { ClassroomNotices } from './workshop/ClassroomNotices';
import { WorkshopPanel } from './workshop/WorkshopPanel';
import { RoomPanel } from './room/RoomPanel';
import { ProjectorView } from './room/ProjectorView';
import { startRoomFromUrl } from './room/roomController';
import { startClassroom } from './workshop/startClassroom';
import { ReferenceBar } from './reference/ReferenceBar';
import { RunBar } from './run/RunBar';
import { Scoreboard } from './run/Scoreboard';
import { SeedClaims } from './run/SeedClaims';
import { ViewControls } from './run/ViewControls';
import { RunsList } from './runs/RunsList';
import { useLab } from './store';
import { HeroView } from './hero/HeroView';
import { startMainThreadWatch } from './perf/mainThread';
import { startShareLinks } from './shareLink';
import { backendFromUrl, connectTrainingWorker } from './trainingWorker';

export function App() {
  const theme = useLab((s) => s.ui.theme);
  const presenter = useLab((s) => s.ui.presenter);
  const workshopOpen = useLab((s) => s.classroom.workshop != null);
  const projector = useLab((s) => s.room.role === 'presenter' && s.room.projector);

  // The experiment a shared URL names, then the URL following every edit. First: the worker is
  // told the cohort on screen (for a backend choice remembered for it).
  useEffect(() => startShareLinks(), []);
  // Classroom links (?hide=, ?workshop=1&step=N), read after the shared experiment is loaded.
  useEffect(() => startClassroom(), []);
  useEffect(() => connectTrainingWorker(backendFromUrl()), []);
  // A class room's join link (?room=&server=): join it, after the worker is there to train the seat.
  useEffect(() => startRoomFromUrl(), []);
  useEffect(() => startMainThreadWatch(), []);
  // A layout effect: it runs before the charts' effects, which read --ink and --grid for the new
  // theme when they are re-created (in a plain effect they read the old one: invisible axes in dark).
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.classList.toggle('presenter', presenter);
  }, [theme, presenter]);

  // The presenter's projector view of a room is the whole window: the class alone.
  if (projector) {
    return (
      <ErrorBoundary where="The projector view">
        <ProjectorView />
      </ErrorBoundary>
    );
  }

  return (
    <ErrorBoundary where="Cohort Lab">
      <div className="app">
        <header className="top">
          <div className="brand">
            <h1>Cohort Lab</h1>
            <p className="tagline">Tiny AI models learn sums without the answers. One that marks its own work fools itself; a partner can teach.</p>
          </div>
          <ViewControls />
        </header>
        <ErrorBoundary where="The run bar">
          <RunBar />
          <Notices />
          <WarmStartCurves />
          <ImportNotices />
          <PwaNotices />
          <ClassroomNotices />
          <ErrorBoundary where="The class room">
            <RoomPanel />
          </ErrorBoundary>
          <ReferenceBar />
        </ErrorBoundary>
        {/* The phenomenon first, beside the workshop card when one is open. */}
        <div className={`stage${workshopOpen ? ' with-workshop' : ''}`}>
          <ErrorBoundary where="The hero view">
            <HeroView />
          </ErrorBoundary>
          <ErrorBoundary where="The workshop">
            <WorkshopPanel />
          </ErrorBoundary>
        </div>
        <main className="layout">
          <aside className="side">
            <ErrorBoundary where="The experiment panel">
              <ExperimentPanel />
            </ErrorBoundary>
            <ErrorBoundary where="The saved runs">
              <RunsList />
            </ErrorBoundary>
          </aside>
          <div className="panels">
            <ErrorBoundary where="The claims over seeds">
              <SeedClaims />
            </ErrorBoundary>
            <ErrorBoundary where="The scoreboard">
              <Scoreboard />
            </ErrorBoundary>
            <PseudoLabelPanel />
            <DisagreementPanel />
            <OverlapPanel />
            <CollapsePanel />
            <AccuracyPanel />
            <InspectorPanel />
            <Glossary />
          </div>
        </main>
      </div>
    </ErrorBoundary>
  );
}

export default App;
