/**
 * The condition builder: an outer AND/OR over groups, each group an AND/OR over condition
 * rows. A row's type (metric, compare to, status, name, tag, match type) decides its inputs;
 * ratios are typed as percentages (the schema sends fractions), money in the campaign
 * group's currency. The metric pickers list Apple Ads' metrics, then the Conversions and Cohort
 * metrics where the level has them (`MetricSelect`: locked on pro_limited, a Cohort metric with
 * the age of installs it is judged on).
 */
import { ActionIcon, Button, Card, Group, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useWatch, type Path } from 'react-hook-form';
import { t } from '@/i18n';
import type { ConversionGroup } from '@/lib/report-catalog';
import { conditionTypeLabel, levelLabel } from '../describe';
import { useConversionLock } from '../hooks/useConversionLock';
import { newCondition } from '../form-values';
import {
  conditionTypesAt,
  isMoneyMetric,
  isRatio,
  MATCH_TYPES,
  MAX_CONDITIONS,
  MAX_GROUPS,
  metricsAt,
  NAME_OPERATORS,
  OPERATOR_SYMBOL,
  OPERATORS,
  othersAt,
  STATUSES,
  type ConditionType,
  type RuleForm,
  type RuleLevel,
} from '../schema';
import { messageOr } from '../messages';
import { InlineTextField, ListError, MultiSelectField, SelectField, TagsField, useBound, useErrorAt, type RuleControl } from './fields';
import { MetricSelect } from './MetricSelect';

const operatorData = OPERATORS.map((op) => ({ value: op, label: OPERATOR_SYMBOL[op] }));

function LogicSwitch({ control, name, label }: { control: RuleControl; name: Path<RuleForm>; label: string }) {
  const { value, onChange } = useBound<string>(control, name, (v) => (v === 'OR' ? 'OR' : 'AND'));
  return (
    <SegmentedControl
      size="xs"
      aria-label={label}
      data={[
        { value: 'AND', label: t('rules.and') },
        { value: 'OR', label: t('rules.or') },
      ]}
      value={value}
      onChange={onChange}
    />
  );
}

/** The value's unit beside its input: % for ratios, the currency for money. */
function unitOf(metric: string, currency: string | null): string | undefined {
  if (isRatio(metric)) return '%';
  if (isMoneyMetric(metric)) return currency ?? undefined;
  return undefined;
}

interface RowProps {
  control: RuleControl;
  level: RuleLevel;
  currency: string | null;
  locked: readonly ConversionGroup[];
  g: number;
  i: number;
  onRemove: () => void;
  onType: (type: string) => void;
}

function ConditionRow({ control, level, currency, locked, g, i, onRemove, onType }: RowProps) {
  const path = `conditions.groups.${g}.conditions.${i}` as const;
  const condition = useWatch({ control, name: path });
  const typeError = useErrorAt(control, `${path}.type`);
  const row = t('rules.conditionN').replace('{n}', String(i + 1));
  return (
    <Group align="flex-start" gap="xs" wrap="wrap" data-testid={`condition-${g}-${i}`}>
      <Select
        aria-label={`${row}: ${t('rules.cond.type')}`}
        w={140}
        allowDeselect={false}
        data={conditionTypesAt(level)
          .concat(conditionTypesAt(level).includes(condition.type) ? [] : [condition.type])
          .map((type) => ({ value: type, label: conditionTypeLabel(type) }))}
        value={condition.type}
        onChange={(next) => next && next !== condition.type && onType(next)}
        error={typeError}
      />
      {(condition.type === 'metric' || condition.type === 'compare') && (
        <>
          <MetricSelect control={control} name={`${path}.metric`} label={`${row}: ${t('rules.cond.metric')}`} w={230} metrics={metricsAt(level)} locked={locked} />
          <SelectField control={control} name={`${path}.operator`} label={`${row}: ${t('rules.cond.operator')}`} hiddenLabel w={80} data={operatorData} />
        </>
      )}
      {condition.type === 'metric' && (
        <InlineTextField
          control={control}
          name={`${path}.value`}
          label={`${row}: ${t('rules.value')}`}
          hiddenLabel
          w={150}
          unit={unitOf(condition.metric, currency) && (
            <Text size="xs" c="dimmed">
              {unitOf(condition.metric, currency)}
            </Text>
          )}
        />
      )}
      {condition.type === 'compare' && (
        <>
          <InlineTextField control={control} name={`${path}.coefficient`} label={`${row}: ${t('rules.cond.coefficient')}`} hiddenLabel w={90} />
          <Text mt={6} aria-hidden>
            ×
          </Text>
          <MetricSelect control={control} name={`${path}.other`} label={`${row}: ${t('rules.cond.other')}`} w={230} metrics={othersAt(level)} locked={locked} />
        </>
      )}
      {condition.type === 'status' && (
        <MultiSelectField control={control} name={`${path}.values`} label={`${row}: ${t('rules.cond.status')}`} hiddenLabel w={260} data={STATUSES[level].map((s) => ({ value: s, label: messageOr(`status.${s}`, s) }))} />
      )}
      {condition.type === 'matchType' && (
        <MultiSelectField control={control} name={`${path}.values`} label={`${row}: ${t('rules.cond.matchType')}`} hiddenLabel w={260} data={MATCH_TYPES.map((m) => ({ value: m, label: messageOr(`rules.match.${m}`, m) }))} />
      )}
      {condition.type === 'tag' && <TagsField control={control} name={`${path}.values`} label={`${row}: ${t('rules.cond.tag')}`} hiddenLabel w={260} placeholder={t('rules.cond.tagPlaceholder')} />}
      {condition.type === 'name' && (
        <>
          <SelectField
            control={control}
            name={`${path}.operator`}
            label={`${row}: ${t('rules.cond.operator')}`}
            hiddenLabel
            w={170}
            data={NAME_OPERATORS.map((op) => ({ value: op, label: messageOr(`rules.nameOp.${op}`, op) }))}
          />
          <InlineTextField control={control} name={`${path}.value`} label={`${row}: ${t('rules.cond.text')}`} hiddenLabel w={220} />
        </>
      )}
      <ActionIcon variant="subtle" color="gray" mt={4} aria-label={t('rules.removeCondition').replace('{n}', String(i + 1))} onClick={onRemove}>
        <IconTrash size={16} />
      </ActionIcon>
    </Group>
  );
}

function GroupCard({ control, level, currency, locked, g, onRemove, canRemove }: Omit<RowProps, 'i' | 'onType'> & { canRemove: boolean }) {
  const { fields, append, remove, update } = useFieldArray({ control, name: `conditions.groups.${g}.conditions` });
  const title = t('rules.groupN').replace('{n}', String(g + 1));
  return (
    <Card withBorder padding="sm" aria-label={title} component="section">
      <Stack gap="xs">
        <Group justify="space-between">
          <Group gap="xs">
            <Text fw={600} size="sm">
              {title}
            </Text>
            <LogicSwitch control={control} name={`conditions.groups.${g}.operator`} label={`${title}: ${t('rules.logic')}`} />
          </Group>
          {canRemove && (
            <Button variant="subtle" color="gray" size="xs" leftSection={<IconTrash size={14} />} onClick={onRemove}>
              {t('rules.removeGroup')}
            </Button>
          )}
        </Group>
        {fields.map((field, i) => (
          <ConditionRow
            key={field.id}
            control={control}
            level={level}
            currency={currency}
            locked={locked}
            g={g}
            i={i}
            onRemove={() => remove(i)}
            onType={(type) => update(i, newCondition(type as ConditionType, level))}
          />
        ))}
        <ListError control={control} name={`conditions.groups.${g}.conditions`} />
        <Group>
          <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={fields.length >= MAX_CONDITIONS} onClick={() => append(newCondition('metric', level))}>
            {t('rules.addCondition')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

export function ConditionBuilder({ control, level, currency }: { control: RuleControl; level: RuleLevel; currency: string | null }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'conditions.groups' });
  const locked = useConversionLock();
  return (
    <Stack gap="sm">
      <Group gap="xs">
        <Text size="sm">{t('rules.matchWhen').replace('{level}', levelLabel(level).toLowerCase())}</Text>
        <LogicSwitch control={control} name="conditions.operator" label={t('rules.outerLogic')} />
        <Text size="sm">{t('rules.ofGroups')}</Text>
      </Group>
      {fields.map((field, g) => (
        <GroupCard key={field.id} control={control} level={level} currency={currency} locked={locked} g={g} canRemove={fields.length > 1} onRemove={() => remove(g)} />
      ))}
      <ListError control={control} name="conditions.groups" />
      <Group>
        <Button variant="default" size="xs" leftSection={<IconPlus size={14} />} disabled={fields.length >= MAX_GROUPS} onClick={() => append({ operator: 'AND', conditions: [newCondition('metric', level)] })}>
          {t('rules.addGroup')}
        </Button>
      </Group>
    </Stack>
  );
}
