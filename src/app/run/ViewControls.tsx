import { useLab } from '../store';
import { CopyLinkButton } from './CopyLinkButton';
import { KeyboardShortcuts } from './KeyboardShortcuts';
import { SmoothingControl } from './SmoothingControl';
import { WorkshopButton } from '../workshop/WorkshopButton';
import { RoomButton } from '../room/RoomButton';

/** Chart smoothing, copy link, light/dark theme and presenter (large type) switches, keyboard shortcuts. */
export function ViewControls() {
  const ui = useLab((s) => s.ui);
  const setTheme = useLab((s) => s.setTheme);
  const setPresenter = useLab((s) => s.setPresenter);
  return (
    <div className="view-controls">
      <SmoothingControl />
      <CopyLinkButton />
      <WorkshopButton />
      <RoomButton />
      <button type="button" aria-pressed={ui.theme === 'dark'} data-testid="theme-toggle" onClick={() => setTheme(ui.theme === 'dark' ? 'light' : 'dark')}>
        {ui.theme === 'dark' ? '☀ Light' : '☾ Dark'}
      </button>
      <button type="button" aria-pressed={ui.presenter} data-testid="presenter-toggle" title="Larger type and lines for a projector" onClick={() => setPresenter(!ui.presenter)}>
        {ui.presenter ? 'Normal size' : 'Presenter'}
      </button>
      <KeyboardShortcuts />
    </div>
  );
}
