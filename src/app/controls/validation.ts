import type { ExperimentSpec } from '../../core/experiment/spec';
import { useLab } from '../store';
import { type DraftValidation, validateDraft } from '../store/specEdits';

const cache = new WeakMap<ExperimentSpec, DraftValidation>();

/** validateDraft, computed once per draft object (every control asks for it). */
export function validationOf(draft: ExperimentSpec): DraftValidation {
  let v = cache.get(draft);
  if (!v) {
    v = validateDraft(draft);
    cache.set(draft, v);
  }
  return v;
}

export function useDraftValidation(): DraftValidation {
  return validationOf(useLab((s) => s.draft));
}
