import { problemsAt, problemsExactly } from '../store/specEdits';
import { useDraftValidation } from './validation';

/** The spec problems at `path` (or below it, unless `exact`), shown next to the control. */
export function FieldProblems({ path, exact = true, id }: { path: string; exact?: boolean; id?: string }) {
  const { problems } = useDraftValidation();
  const here = exact ? problemsExactly(problems, path) : problemsAt(problems, path);
  if (here.length === 0) return null;
  return (
    <span className="field-problem" id={id} role="note" data-testid={`problem-${path}`}>
      {here.map((p) => p.message).join('; ')}
    </span>
  );
}
