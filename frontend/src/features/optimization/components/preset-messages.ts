/** The text of a preset name problem (docs/product.md#5-column-presets). */
import { t } from '@/i18n';
import type { NameProblem } from '../presets';

export function nameProblemText(problem: NameProblem): string | null {
  if (problem === 'required') return t('common.required');
  if (problem === 'taken') return t('presets.nameTaken');
  if (problem === 'tooLong') return t('presets.nameTooLong');
  return null;
}
