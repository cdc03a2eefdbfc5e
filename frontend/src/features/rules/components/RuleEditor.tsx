/**
 * The create / edit page of a rule (`/auto-rules/new`, `/auto-rules/{id}/edit`): name, level,
 * campaigns, the condition builder, window, frequency (in the campaign group's time zone),
 * actions and guardrails, checked by the rule schema as typed; Save (`PUT rules/user` or
 * `rules/user/{id}`), and Preview and Backtest of the rule as it stands, saved or not. The
 * server's field errors land on their fields, wherever the form sends the rule.
 */
import { Anchor, Button, Card, Collapse, Group, SegmentedControl, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { get, useFieldArray, useFormState, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { Form, routeServerErrors, SubmitButton, TextField, useZodForm } from '@/components/form';
import { isProPlan, LimitNotice } from '@/components/LimitNotice';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { isLimitError } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useGroupCampaigns, type PickerCampaign } from '../api/campaigns';
import { BACKTEST_MAX_DAYS, useBacktestRule, usePreviewRule, type Backtest } from '../api/preview';
import { useRules, useSaveRule } from '../api/rules';
import type { Run } from '../api/runs';
import { levelLabel, weekdayLabel } from '../describe';
import { emptyRule, newFrequency, newWindow, ruleToForm } from '../form-values';
import { actionsAt, countersAt, LEVELS, NAME_MAX, ruleSchema, WEEKDAYS, type RuleBody, type RuleForm, type RuleLevel } from '../schema';
import { useConversionLock } from '../hooks/useConversionLock';
import { useRuleScope, type ActiveGroup } from '../hooks/useRuleScope';
import { ActionsEditor } from './ActionsEditor';
import { ConditionBuilder } from './ConditionBuilder';
import { MetricSelect } from './MetricSelect';
import { CheckboxField, HourField, InlineTextField, MultiSelectField, SelectField, type RuleControl } from './fields';
import { NoGroup, RULES_PATH } from './common';
import { BacktestPanel, PreviewPanel } from './Results';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Title order={4}>{title}</Title>
        {children}
      </Stack>
    </Card>
  );
}

function LevelField({ control, onLevel }: { control: RuleControl; onLevel: (level: RuleLevel) => void }) {
  const level = useWatch({ control, name: 'level' });
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="rule-level">
        {t('rules.level')}
      </Text>
      <SegmentedControl
        aria-labelledby="rule-level"
        data={LEVELS.map((level) => ({ value: level, label: levelLabel(level) }))}
        value={level}
        onChange={(next) => onLevel(next)}
      />
    </Stack>
  );
}

function WindowFields({ control, onType }: { control: RuleControl; onType: (type: 'last' | 'between') => void }) {
  const window = useWatch({ control, name: 'window' });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('rules.window')}
        w="fit-content"
        data={[
          { value: 'last', label: t('rules.window.last') },
          { value: 'between', label: t('rules.window.between') },
        ]}
        value={window.type}
        onChange={(next) => onType(next)}
      />
      {window.type === 'last' ? (
        <Group align="flex-end">
          <TextField control={control} name="window.days" label={t('rules.window.days')} inputMode="numeric" />
          <CheckboxField control={control} name="window.excludeToday" label={t('rules.window.excludeToday')} />
        </Group>
      ) : (
        <Group align="flex-start">
          <TextField control={control} name="window.fromDaysAgo" label={t('rules.window.from')} inputMode="numeric" />
          <TextField control={control} name="window.toDaysAgo" label={t('rules.window.to')} inputMode="numeric" />
        </Group>
      )}
    </Stack>
  );
}

function FrequencyFields({ control, timeZone, onType }: { control: RuleControl; timeZone: string | null; onType: (type: 'hourly' | 'daily' | 'weekly') => void }) {
  const frequency = useWatch({ control, name: 'frequency' });
  return (
    <Stack gap="xs">
      <SegmentedControl
        aria-label={t('rules.frequency')}
        w="fit-content"
        data={[
          { value: 'hourly', label: t('rules.freq.hourly') },
          { value: 'daily', label: t('rules.freq.daily') },
          { value: 'weekly', label: t('rules.freq.weekly') },
        ]}
        value={frequency.type}
        onChange={(next) => onType(next)}
      />
      <Group align="flex-start">
        {frequency.type === 'weekly' && <SelectField control={control} name="frequency.weekday" label={t('rules.freq.weekday')} w={160} data={WEEKDAYS.map((d) => ({ value: d, label: weekdayLabel(d) }))} />}
        {frequency.type !== 'hourly' && <HourField control={control} name="frequency.hour" label={t('rules.freq.hour')} w={120} />}
      </Group>
      <Text size="xs" c="dimmed">
        {t('rules.freq.timeZone').replace('{zone}', timeZone ?? '—')}
      </Text>
    </Stack>
  );
}

function GuardrailsFields({ control, currency, level }: { control: RuleControl; currency: string | null; level: RuleLevel }) {
  const locked = useConversionLock();
  const { errors } = useFormState({ control, name: 'guardrails' });
  const [opened, setOpened] = useState(false);
  const open = opened || get(errors, 'guardrails') !== undefined;
  const { fields, append, remove } = useFieldArray({ control, name: 'guardrails.minData' });
  const unit = currency ? (
    <Text size="xs" c="dimmed">
      {currency}
    </Text>
  ) : null;
  return (
    <Card withBorder padding="md" component="section" aria-label={t('rules.guardrails')}>
      <Stack gap="sm">
        <Anchor component="button" type="button" onClick={() => setOpened((o) => !o)} aria-expanded={open} fw={600}>
          <Group gap={4}>
            {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            {t('rules.guardrails')}
          </Group>
        </Anchor>
        <Collapse expanded={open}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('rules.guard.help')}
            </Text>
            <Group align="flex-start">
              <TextField control={control} name="guardrails.minBid" label={t('rules.guard.minBid')} inputMode="decimal" rightSection={unit} rightSectionWidth={48} />
              <TextField control={control} name="guardrails.maxBid" label={t('rules.guard.maxBid')} inputMode="decimal" rightSection={unit} rightSectionWidth={48} />
              <TextField control={control} name="guardrails.minBudget" label={t('rules.guard.minBudget')} inputMode="decimal" rightSection={unit} rightSectionWidth={48} />
              <TextField control={control} name="guardrails.maxBudget" label={t('rules.guard.maxBudget')} inputMode="decimal" rightSection={unit} rightSectionWidth={48} />
            </Group>
            <Group align="flex-start">
              <TextField control={control} name="guardrails.maxChangePercent" label={t('rules.guard.maxChange')} inputMode="decimal" rightSection={<Text size="xs">%</Text>} />
              <TextField control={control} name="guardrails.maxEntities" label={t('rules.guard.maxEntities')} description={t('rules.guard.maxEntitiesHelp')} inputMode="numeric" />
            </Group>
            <Text size="sm" fw={500}>
              {t('rules.guard.minData')}
            </Text>
            {fields.map((field, i) => (
              <Group key={field.id} align="flex-start" gap="xs">
                <MetricSelect control={control} name={`guardrails.minData.${i}.metric`} label={t('rules.guard.minDataMetric').replace('{n}', String(i + 1))} w={200} metrics={countersAt(level)} locked={locked} />
                <Text mt={6}>≥</Text>
                <InlineTextField control={control} name={`guardrails.minData.${i}.value`} label={t('rules.guard.minDataValue').replace('{n}', String(i + 1))} hiddenLabel w={120} />
                <Button variant="subtle" color="gray" size="xs" mt={4} onClick={() => remove(i)} aria-label={t('rules.guard.removeMinData').replace('{n}', String(i + 1))}>
                  <IconTrash size={14} />
                </Button>
              </Group>
            ))}
            <Group>
              <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={() => append({ metric: 'taps', value: '10' })}>
                {t('rules.guard.addMinData')}
              </Button>
            </Group>
          </Stack>
        </Collapse>
      </Stack>
    </Card>
  );
}

interface EditorProps {
  group: ActiveGroup;
  ruleId: string | null;
  initial: RuleForm;
  campaigns: PickerCampaign[];
}

function RuleEditorForm({ group, ruleId, initial, campaigns }: EditorProps) {
  const { accountId, orgId, currency } = group;
  const schema = useMemo(() => ruleSchema({ accountId, orgId, currency }), [accountId, orgId, currency]);
  const form = useZodForm(schema, initial);
  const { control } = form;
  const navigate = useNavigate();
  const save = useSaveRule(group);
  const preview = usePreviewRule();
  const backtest = useBacktestRule();
  const [previewed, setPreviewed] = useState<{ run: Run; level: RuleLevel } | null>(null);
  const [tested, setTested] = useState<Backtest | null>(null);
  const [days, setDays] = useState('30');
  const [limit, setLimit] = useState<unknown>(null);
  const level = useWatch({ control, name: 'level' });
  const { user } = useSession();

  const onLevel = (next: RuleLevel) => {
    form.setValue('level', next, { shouldDirty: true });
    // Actions of another level cannot stay: the new level's menu offers its own.
    form.setValue(
      'actions',
      form.getValues('actions').filter((a) => actionsAt(next).includes(a.type)),
      { shouldDirty: true },
    );
  };

  const onSave = async (body: RuleBody) => {
    setLimit(null);
    try {
      await save.mutateAsync({ body, id: ruleId });
    } catch (error) {
      if (isLimitError(error)) setLimit(error);
      throw error;
    }
    showSnackbar(t('rules.saved'));
    void navigate(RULES_PATH);
  };

  const onPreview = form.handleSubmit(async (body) => {
    setTested(null);
    try {
      setPreviewed({ run: await preview.mutateAsync(body), level: body.level });
    } catch (error) {
      routeServerErrors(error, form);
    }
  });

  const backtestDays = Number(days);
  const daysValid = Number.isInteger(backtestDays) && backtestDays >= 1 && backtestDays <= BACKTEST_MAX_DAYS;
  const onBacktest = form.handleSubmit(async (body) => {
    setPreviewed(null);
    try {
      setTested(await backtest.mutateAsync({ rule: body, days: backtestDays }));
    } catch (error) {
      routeServerErrors(error, form);
    }
  });

  return (
    <Stack gap="md">
      <Form form={form} onSubmit={onSave} name={t('rules.formName')}>
        {isLimitError(limit) && <LimitNotice type={limit.meta.type} pro={isProPlan(user?.purchase)} />}
        <Section title={t('rules.section.rule')}>
          <TextField control={control} name="name" label={t('rules.name')} maxLength={NAME_MAX + 20} />
          <LevelField control={control} onLevel={onLevel} />
          <MultiSelectField
            control={control}
            name="campaignIds"
            label={t('rules.campaigns')}
            description={t('rules.campaignsHelp').replace('{group}', group.orgName)}
            searchable
            data={campaigns.map((c) => ({ value: c.campaignId, label: c.campaignName }))}
          />
        </Section>
        <Section title={t('rules.section.conditions')}>
          <ConditionBuilder control={control} level={level} currency={group.currency} />
        </Section>
        <Section title={t('rules.window')}>
          <WindowFields control={control} onType={(type) => form.setValue('window', newWindow(type), { shouldDirty: true })} />
        </Section>
        <Section title={t('rules.frequency')}>
          <FrequencyFields
            control={control}
            timeZone={group.timeZone}
            onType={(type) => {
              const current = form.getValues('frequency');
              form.setValue('frequency', newFrequency(type, 'hour' in current ? current.hour : 6), { shouldDirty: true });
            }}
          />
        </Section>
        <Section title={t('rules.actions')}>
          <ActionsEditor control={control} level={level} currency={group.currency} scope={group} campaigns={campaigns} />
        </Section>
        <GuardrailsFields control={control} currency={group.currency} level={level} />
        <Group justify="space-between" wrap="wrap" align="flex-end">
          <Group align="flex-end">
            <Button variant="default" onClick={() => void onPreview()} loading={preview.isPending}>
              {t('rules.preview')}
            </Button>
            <Group gap={6} align="flex-end">
              <TextInput
                w={110}
                label={t('rules.backtest.days')}
                value={days}
                inputMode="numeric"
                onChange={(event) => setDays(event.currentTarget.value)}
                error={daysValid ? undefined : t('rules.backtest.daysRange').replace('{max}', String(BACKTEST_MAX_DAYS))}
              />
              <Button variant="default" onClick={() => void onBacktest()} loading={backtest.isPending} disabled={!daysValid}>
                {t('rules.backtest')}
              </Button>
            </Group>
          </Group>
          <Group>
            <Button component={Link} to={RULES_PATH} variant="subtle">
              {t('common.cancel')}
            </Button>
            <SubmitButton>{t('rules.save')}</SubmitButton>
          </Group>
        </Group>
      </Form>
      {(preview.error || backtest.error) && !previewed && !tested && (
        <Text c="red" size="sm" role="alert">
          {(preview.error ?? backtest.error)?.message}
        </Text>
      )}
      {previewed && <PreviewPanel run={previewed.run} level={previewed.level} currency={group.currency} campaigns={campaigns} />}
      {tested && <BacktestPanel backtest={tested} currency={group.currency} campaigns={campaigns} />}
    </Stack>
  );
}

export function RuleEditor() {
  const { ruleId } = useParams();
  const scope = useRuleScope();
  const { group } = scope;
  const rules = useRules(group);
  const campaigns = useGroupCampaigns(group);
  if (!group) return <NoGroup scope={scope} />;
  const id = ruleId ?? null;
  const rule = id === null ? null : (rules.data?.find((r) => r.id === id) ?? null);
  const title = id === null ? t('rules.createTitle') : t('rules.editTitle');
  const waiting = (id !== null && rules.isPending) || campaigns.isPending;
  return (
    <Stack gap="md" maw={1200}>
      <Group justify="space-between">
        <Title order={2}>{title}</Title>
        <Anchor component={Link} to={RULES_PATH} size="sm">
          {t('rules.backToList')}
        </Anchor>
      </Group>
      {waiting ? (
        <Text c="dimmed">{t('common.loading')}</Text>
      ) : id !== null && !rule ? (
        <Text>{t('rules.notFound')}</Text>
      ) : (
        <RuleEditorForm key={`${group.accountId}:${group.orgId}:${id ?? 'new'}`} group={group} ruleId={id} initial={rule ? ruleToForm(rule) : emptyRule()} campaigns={campaigns.data ?? []} />
      )}
    </Stack>
  );
}
