/**
 * A rule's guardrails (docs/api/rules.md "Guardrails"): the bounds of its bids and budgets,
 * of a change and of the entities touched, and the data an entity needs first; the form's
 * shape, the body's, and the check (`guardrails.maxBid`).
 */
import { z } from 'zod';
import { t } from '@/i18n';
import { countersAt, isConversionCount } from './metrics';
import { type Checker, clean, typed, type Path } from './numbers';
import type { RuleLevel } from './vocabulary';

export const guardrailsFormSchema = z.object({
  minBid: typed,
  maxBid: typed,
  minBudget: typed,
  maxBudget: typed,
  maxChangePercent: typed,
  maxEntities: typed,
  minData: z.array(z.object({ metric: z.string(), value: typed })),
});
export type GuardrailsForm = z.input<typeof guardrailsFormSchema>;

export interface GuardrailsBody {
  minBid: string | null;
  maxBid: string | null;
  minBudget: string | null;
  maxBudget: string | null;
  maxChangePercent: string | null;
  maxEntities: number | null;
  minData: { metric: string; value: string }[];
}

export function checkGuardrails(check: Checker, g: GuardrailsForm, currency: string | null, level: RuleLevel): GuardrailsBody {
  const counters = countersAt(level);
  const at = (field: string): Path => ['guardrails', field];
  const minBid = check.optionalMoney(at('minBid'), g.minBid, currency, t('rules.guard.minBid'), 'zeroOrMore');
  const maxBid = check.optionalMoney(at('maxBid'), g.maxBid, currency, t('rules.guard.maxBid'), 'zeroOrMore');
  const minBudget = check.optionalMoney(at('minBudget'), g.minBudget, currency, t('rules.guard.minBudget'), 'zeroOrMore');
  const maxBudget = check.optionalMoney(at('maxBudget'), g.maxBudget, currency, t('rules.guard.maxBudget'), 'zeroOrMore');
  if (minBid !== null && maxBid !== null && Number(minBid) > Number(maxBid)) check.issue(at('maxBid'), t('rules.error.minMax'));
  if (minBudget !== null && maxBudget !== null && Number(minBudget) > Number(maxBudget)) check.issue(at('maxBudget'), t('rules.error.minMax'));
  const maxChangePercent = clean(g.maxChangePercent) === '' ? null : check.decimal(at('maxChangePercent'), g.maxChangePercent, { min: 1, max: 1000 });
  const maxEntities = clean(g.maxEntities) === '' ? null : check.integer(at('maxEntities'), g.maxEntities, 1, 10_000);
  const minData = g.minData.flatMap((row, i) => {
    if (!counters.includes(row.metric)) check.issue(['guardrails', 'minData', i, 'metric'], t('rules.error.counter'));
    const value = check.decimal(['guardrails', 'minData', i, 'value'], row.value, { min: 0, integer: isConversionCount(row.metric) });
    return value === null ? [] : [{ metric: row.metric, value }];
  });
  return { minBid, maxBid, minBudget, maxBudget, maxChangePercent, maxEntities, minData };
}
