/**
 * What the service worker means for the user, in words: the lab is ready to work offline (once,
 * a small dismissible chip whose title says the whole sentence), or a new version waits for a reload (never forced: a run in progress would stop).
 */
import { useState, useSyncExternalStore } from 'react';
import { useLab } from '../store';
import { isActivePhase } from '../../engine/protocol';
import { applyPwaUpdate, getPwaStatus, subscribePwaStatus } from './status';

const OFFLINE_READY = 'Ready to work offline: this page now reloads and trains without a network connection.';

export function PwaNotices() {
  const status = useSyncExternalStore(subscribePwaStatus, getPwaStatus);
  const running = useLab((s) => isActivePhase(s.run.phase));
  const [offlineSeen, setOfflineSeen] = useState(false);
  return (
    <div className="notices">
      {/* A small chip, not a banner: it showed on every first visit and took 90 px of it. */}
      {status.offlineReady && !offlineSeen && (
        <div role="status" className="notice-chip" data-testid="offline-ready" title={OFFLINE_READY}>
          <span className="notice-text">Works offline now</span>
          <button type="button" className="link" aria-label="Dismiss: ready to work offline" data-testid="offline-ready-dismiss" onClick={() => setOfflineSeen(true)}>
            ×
          </button>
        </div>
      )}
      {status.updateReady && (
        <div role="status" className="notice notice-info" data-testid="update-ready">
          <span className="notice-text">A new version of Cohort Lab is ready.{running ? ' Reloading stops the run in progress.' : ''}</span>{' '}
          <button type="button" className="link" onClick={() => applyPwaUpdate()}>
            Reload
          </button>
        </div>
      )}
    </div>
  );
}
