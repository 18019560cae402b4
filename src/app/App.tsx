/**
 * Cohort Lab: the experiment on the left, the run bar on top, the five panels on the right.
 * The page talks to the training worker only through trainingWorker.ts (protocol.ts).
 */
import { useEffect } from 'react';
import './styles.css';
import { ErrorBoundary } from './ErrorBoundary';
import { Glossary } from './Glossary';
import { ExperimentPanel } from './controls/ExperimentPanel';
import { AccuracyPanel } from './panels/AccuracyPanel';
import { CollapsePanel } from './panels/CollapsePanel';
import { DisagreementPanel } from './panels/DisagreementPanel';
import { InspectorPanel } from './panels/InspectorPanel';
import { PseudoLabelPanel } from './panels/PseudoLabelPanel';
import { Notices } from './run/Notices';
import { ImportNotices } from './run/ImportNotices';
import { ReferenceBar } from './reference/ReferenceBar';
import { CohortSummary } from './run/CohortSummary';
import { RunBar } from './run/RunBar';
import { ViewControls } from './run/ViewControls';
import { useLab } from './store';
import { startShareLinks } from './shareLink';
import { backendFromUrl, connectTrainingWorker } from './trainingWorker';

export function App() {
  const theme = useLab((s) => s.ui.theme);
  const presenter = useLab((s) => s.ui.presenter);

  // The experiment a shared URL names, then the URL following every edit. First: the worker is
  // told the cohort on screen (for a backend choice remembered for it).
  useEffect(() => startShareLinks(), []);
  useEffect(() => connectTrainingWorker(backendFromUrl()), []);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = theme;
    root.classList.toggle('presenter', presenter);
  }, [theme, presenter]);

  return (
    <ErrorBoundary where="Cohort Lab">
      <div className="app">
        <header className="top">
          <div className="brand">
            <h1>Cohort Lab</h1>
            <p className="tagline">Train tiny language models without labels, and watch why self-reward collapses while peer reward holds.</p>
          </div>
          <ViewControls />
        </header>
        <ErrorBoundary where="The run bar">
          <RunBar />
          <CohortSummary />
          <Notices />
          <ImportNotices />
          <ReferenceBar />
        </ErrorBoundary>
        <main className="layout">
          <aside className="side">
            <ErrorBoundary where="The experiment panel">
              <ExperimentPanel />
            </ErrorBoundary>
          </aside>
          <div className="panels">
            <PseudoLabelPanel />
            <DisagreementPanel />
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
