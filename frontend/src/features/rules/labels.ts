/**
 * The label of a metric or entity amount a rule names: the tables' column label
 * (`col.roasD7` "ROAS D7"), an entity amount's (`rules.other.cpaGoal` "CPA goal"), else a
 * Cohort window the report catalog added before the copy did (`roasD60`: "ROAS D60" from
 * `col.roas`), else the name itself.
 */
import { messageOr } from './messages';

export function metricLabel(metric: string): string {
  const label = messageOr(`col.${metric}`, messageOr(`rules.other.${metric}`, ''));
  if (label !== '') return label;
  const cohort = /^(\w+?)D(\d+)$/.exec(metric);
  const base = cohort ? messageOr(`col.${cohort[1]}`, '') : '';
  return cohort && base !== '' ? `${base} D${cohort[2]}` : metric;
}
