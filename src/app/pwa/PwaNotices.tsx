/**
 * What the service worker means for the user, in words: the lab is ready to work offline (once,
 * dismissible), or a new version waits for a reload (never forced: a run in progress would stop).
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
      {status.offlineReady && !offlineSeen && (
        <div role="status" className="notice notice-info" data-testid="offline-ready" title={OFFLINE_READY}>
          <span className="notice-text">{OFFLINE_READY}</span>{' '}
          <button type="button" className="link" onClick={() => setOfflineSeen(true)}>
            Dismiss
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
