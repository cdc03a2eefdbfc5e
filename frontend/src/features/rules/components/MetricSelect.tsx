/**
 * A metric picker of the rule form (a condition's metric, a comparison's other side, a
 * minimum-data counter): the metrics under their headings — the entity amounts of a
 * comparison, Apple Ads' metrics, then the Conversions and Cohort metrics of the report catalog
 * where the level has them. Groups the plan locks (pro_limited) are listed disabled, each with a
 * Pro badge under the plan's message. A Cohort metric says under the picker how old its
 * installs must be.
 */
import { Badge, Group, Select, Text, type ComboboxData, type ComboboxItem, type SelectProps } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { Path } from 'react-hook-form';
import { t } from '@/i18n';
import type { ConversionGroup } from '@/lib/report-catalog';
import { metricLabel } from '../describe';
import { cohortDays, metricGroupOf, OTHER_AMOUNTS, type MetricGroup, type RuleForm } from '../schema';
import { fill } from '../schema/numbers';
import { useBound, type RuleControl } from './fields';

const GROUP_ORDER: readonly (MetricGroup | 'amounts')[] = ['amounts', 'Metrics', 'Conversions', 'Cohort'];
/** The value of a group's notice line (never a metric: disabled, never chosen). */
const NOTICE = '__locked:';

const groupOf = (metric: string): MetricGroup | 'amounts' => (metric in OTHER_AMOUNTS ? 'amounts' : metricGroupOf(metric));

/**
 * The picker's options: `metrics` under their headings (in `metrics`' order within each), the
 * metrics of a group in `locked` disabled after a notice with the plan's message. `current`,
 * when the level does not offer it (a level changed), is listed too, so the field shows what
 * is wrong with it.
 */
export function metricOptions(metrics: readonly string[], locked: readonly ConversionGroup[], current?: string): ComboboxData {
  const all = current && current !== '' && !metrics.includes(current) ? [...metrics, current] : metrics;
  return GROUP_ORDER.flatMap((group) => {
    const names = all.filter((m) => groupOf(m) === group);
    if (names.length === 0) return [];
    const isLocked = group !== 'amounts' && group !== 'Metrics' && locked.includes(group);
    const items: ComboboxItem[] = names.map((m) => ({ value: m, label: metricLabel(m), disabled: isLocked }));
    if (isLocked) items.unshift({ value: `${NOTICE}${group}`, label: t('rules.cond.proLocked'), disabled: true });
    return [{ group: t(`rules.metricGroup.${group}`), items }];
  });
}

const renderOption: SelectProps['renderOption'] = ({ option, checked }) => {
  if (option.value.startsWith(NOTICE)) {
    return (
      <Text size="xs" c="dimmed" data-testid="pro-lock-notice">
        {option.label}
      </Text>
    );
  }
  return (
    <Group gap={6} wrap="nowrap" w="100%">
      {checked ? <IconCheck size={14} aria-hidden style={{ flexShrink: 0 }} /> : <span style={{ width: 14, flexShrink: 0 }} />}
      <span style={{ flex: 1 }}>{option.label}</span>
      {option.disabled && (
        <Badge size="xs" color="orange" variant="light" tt="none">
          {t('rules.pro')}
        </Badge>
      )}
    </Group>
  );
};

/** The hint under a Cohort metric ("Judged on installs at least 7 days old"), else null. */
export function cohortHint(metric: string | null | undefined): string | null {
  const days = metric ? cohortDays(metric) : null;
  return days === null ? null : fill(t('rules.cond.cohortHint'), { days });
}

interface Props {
  control: RuleControl;
  name: Path<RuleForm>;
  label: string;
  metrics: readonly string[];
  locked: readonly ConversionGroup[];
  w?: number;
}

export function MetricSelect({ control, name, label, metrics, locked, w }: Props) {
  const bound = useBound<string | null>(control, name, (v) => (typeof v === 'string' ? v : null), (next) => next ?? '');
  const hint = cohortHint(bound.value);
  return (
    <Select
      aria-label={label}
      {...bound}
      w={w}
      searchable
      allowDeselect={false}
      data={metricOptions(metrics, locked, bound.value ?? undefined)}
      renderOption={renderOption}
      description={hint}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      comboboxProps={{ withinPortal: true, width: 280, position: 'bottom-start' }}
      maxDropdownHeight={360}
    />
  );
}
