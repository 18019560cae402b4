/** What the page ignored in a classroom link (?hide=, ?workshop=, ?step=), as text. */
import { useLab } from '../store';

export function ClassroomNotices() {
  const warnings = useLab((s) => s.classroom.warnings);
  const setWarnings = useLab((s) => s.setClassroomWarnings);
  if (warnings.length === 0) return null;
  return (
    <div className="notices">
      <div role="status" className="notice notice-warn" data-testid="classroom-warning">
        {warnings.map((w) => (
          <span key={w} className="classroom-warning-line">
            {w}{' '}
          </span>
        ))}
        <button type="button" className="link" onClick={() => setWarnings([])}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
