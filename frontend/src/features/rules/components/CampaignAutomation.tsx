/**
 * A campaign's automation edited from the campaigns table (docs/screens/rules.md "In the
 * campaigns table"): beside the `optimizationTypes` cell, a button opening the campaign's
 * goal optimisation (type — off, CPA, CPT, cost per trial, cost per purchase or ROAS goal —,
 * target in the group's currency or, for ROAS, in percent, the cohort a ROAS goal is judged
 * on, the largest bid step per run; `PUT optimization/one/{id}`); beside the `rules` cell, one
 * opening the campaign group's rules, each attached or not (`POST rulesCampaigns/many/{id}`)
 * and, once attached, on or off for this campaign only (`toggleRule`). The table shows them
 * to editors only, and the goal's not where the plan locks the column (Growth).
 */
import { ActionIcon, Button, Checkbox, Group, Popover, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { zRowOptimization } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { ApiError, errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useCampaignRules, useOptimizations, usePutGoal, type GoalChange } from '../api/campaign-automation';
import { useRules, type GroupScope } from '../api/rules';

/** A campaign the editors change: its group, id and name. */
export interface AutomationTarget {
  scope: GroupScope;
  campaignId: string;
  campaignName: string;
  /** Called after a change is saved (the table reads its rows again). */
  onSaved: () => void;
}

function EditButton({ label, children, opened, setOpened }: { label: string; children: ReactNode; opened: boolean; setOpened: (o: boolean) => void }) {
  return (
    <Popover width={320} position="bottom-start" withArrow shadow="md" withinPortal trapFocus opened={opened} onChange={setOpened}>
      <Popover.Target>
        <ActionIcon size="sm" variant="subtle" aria-label={label} onClick={() => setOpened(!opened)}>
          <IconPencil size={14} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>{opened && children}</Popover.Dropdown>
    </Popover>
  );
}

/** The goal optimisation as the report's cell holds it (the document's `RowOptimization`), or null. */
function goalOf(value: unknown): { type: string; target: string | null; maxStepPercent: string | null; cohortDay: number | null } | null {
  const parsed = zRowOptimization.safeParse(value);
  if (!parsed.success) return null;
  return { type: parsed.data.type, target: parsed.data.target ?? null, maxStepPercent: String(parsed.data.maxStepPercent), cohortDay: parsed.data.cohortDay ?? null };
}

function GoalForm({ target, value, onDone }: { target: AutomationTarget; value: unknown; onDone: () => void }) {
  const types = useOptimizations(target.scope);
  const put = usePutGoal(target.scope, target.campaignId);
  const current = goalOf(value);
  const [type, setType] = useState<string>(current?.type ?? 'OFF');
  const [amount, setAmount] = useState(current?.target ?? '');
  const [step, setStep] = useState(current?.maxStepPercent ?? '');
  const [cohortDay, setCohortDay] = useState<string | null>(current?.cohortDay == null ? null : String(current.cohortDay));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const chosen = types.data?.items.find((i) => i.type === type);
  const save = async () => {
    const change: GoalChange =
      type === 'OFF'
        ? { type: null, target: null, maxStepPercent: null }
        : {
            type: type as GoalChange['type'] & string,
            target: amount.trim() === '' ? null : amount.trim(),
            maxStepPercent: step.trim() === '' ? null : step.trim(),
            cohortDay: chosen && chosen.cohortDays.length > 0 && cohortDay !== null ? Number(cohortDay) : null,
          };
    try {
      await put.mutateAsync(change);
      showSnackbar(t('automation.saved'));
      target.onSaved();
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.errors.length > 0) setErrors(Object.fromEntries(error.errors.map((e) => [e.field, e.message])));
      else showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <Stack gap="xs" role="form" aria-label={t('automation.goal.edit').replace('{name}', target.campaignName)}>
      <Select
        label={t('automation.goal.type')}
        value={type}
        onChange={(v) => setType(v ?? 'OFF')}
        allowDeselect={false}
        comboboxProps={{ withinPortal: false }}
        data={[{ value: 'OFF', label: t('automation.goal.off') }, ...(types.data?.items ?? []).map((i) => ({ value: i.type, label: i.name }))]}
      />
      {chosen && (
        <>
          <Text size="xs" c="dimmed">
            {chosen.description}
          </Text>
          {chosen.conversions && (
            <Text size="xs" c="dimmed">
              {t('automation.goal.conversionsHint')}
            </Text>
          )}
          {chosen.cohortDays.length > 0 && (
            <Select
              label={t('automation.goal.cohort')}
              value={cohortDay ?? String(chosen.defaults.cohortDay ?? chosen.cohortDays[0])}
              onChange={setCohortDay}
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              error={errors.cohortDay}
              data={chosen.cohortDays.map((d) => ({ value: String(d), label: d === 0 ? t('automation.goal.cohortDay0') : t('automation.goal.cohortDay').replace(/\{day\}/g, String(d)) }))}
            />
          )}
          <TextInput
            label={chosen.targetUnit === 'percent' ? t('automation.goal.targetRoas') : t('automation.goal.target')}
            description={chosen.targetRequired ? undefined : t('automation.goal.targetHint')}
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.target ?? errors.type}
            inputMode="decimal"
            rightSection={chosen.targetUnit === 'percent' ? <Text size="sm">%</Text> : undefined}
          />
          <TextInput
            label={t('automation.goal.step')}
            placeholder={chosen.defaults.maxStepPercent}
            value={step}
            onChange={(e) => setStep(e.currentTarget.value)}
            error={errors.maxStepPercent}
            inputMode="numeric"
          />
        </>
      )}
      <Group justify="flex-end">
        <Button size="xs" onClick={() => void save()} loading={put.isPending}>
          {t('automation.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The button of the `optimizationTypes` cell: the campaign's goal optimisation. */
export function CampaignGoalEditor({ target, value }: { target: AutomationTarget; value: unknown }) {
  const [opened, setOpened] = useState(false);
  return (
    <EditButton label={t('automation.goal.edit').replace('{name}', target.campaignName)} opened={opened} setOpened={setOpened}>
      <GoalForm target={target} value={value} onDone={() => setOpened(false)} />
    </EditButton>
  );
}

/** The rules of the report's `rules` cell: `[{id, name, enabled}]`. */
function refsOf(value: unknown): { id: string; enabled: boolean }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((v: unknown) =>
    v && typeof v === 'object' && 'id' in v && typeof v.id === 'string' ? [{ id: v.id, enabled: !('enabled' in v) || v.enabled !== false }] : [],
  );
}

function RulesForm({ target, value, onDone }: { target: AutomationTarget; value: unknown; onDone: () => void }) {
  const rules = useRules(target.scope);
  const { set, toggle } = useCampaignRules(target.scope);
  const refs = refsOf(value);
  const [attached, setAttached] = useState<Set<string>>(() => new Set(refs.map((r) => r.id)));
  const [onCampaign, setOnCampaign] = useState<Map<string, boolean>>(() => new Map(refs.map((r) => [r.id, r.enabled])));
  const name = target.campaignName;
  const save = async () => {
    try {
      const before = new Set(refs.map((r) => r.id));
      if (attached.size !== before.size || [...attached].some((id) => !before.has(id))) {
        await set.mutateAsync({ campaignId: target.campaignId, ruleIds: [...attached] });
      }
      for (const ref of refs) {
        const wanted = onCampaign.get(ref.id) ?? true;
        // A rule shown off may be off on the campaign or off altogether: only a rule still
        // attached and switched here is toggled for the campaign.
        if (attached.has(ref.id) && wanted !== ref.enabled) {
          await toggle.mutateAsync({ ruleId: ref.id, campaignId: target.campaignId, enabled: wanted });
        }
      }
      showSnackbar(t('automation.saved'));
      target.onSaved();
      onDone();
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  const list = rules.data ?? [];
  return (
    <Stack gap="xs" role="form" aria-label={t('automation.rules.edit').replace('{name}', name)}>
      {rules.isPending ? (
        <Text size="sm" c="dimmed">
          {t('common.loading')}
        </Text>
      ) : list.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('automation.rules.none')}
        </Text>
      ) : (
        list.map((rule) => {
          const isAttached = attached.has(rule.id);
          const wasAttached = refs.some((r) => r.id === rule.id);
          return (
            <Stack key={rule.id} gap={2}>
              <Checkbox
                label={rule.name}
                checked={isAttached}
                onChange={(e) => {
                  const next = new Set(attached);
                  if (e.currentTarget.checked) next.add(rule.id);
                  else next.delete(rule.id);
                  setAttached(next);
                }}
              />
              {isAttached && wasAttached && (
                <Switch
                  size="xs"
                  ml="xl"
                  label={t('automation.rules.onCampaign')}
                  aria-label={`${t('automation.rules.onCampaign')}: ${rule.name}`}
                  checked={onCampaign.get(rule.id) ?? true}
                  onChange={(e) => setOnCampaign(new Map(onCampaign).set(rule.id, e.currentTarget.checked))}
                />
              )}
              {isAttached && !rule.enabled && (
                <Text size="xs" c="dimmed" ml="xl">
                  {t('automation.rules.ruleOff')}
                </Text>
              )}
            </Stack>
          );
        })
      )}
      <Group justify="flex-end">
        <Button size="xs" onClick={() => void save()} loading={set.isPending || toggle.isPending} disabled={list.length === 0}>
          {t('automation.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The button of the `rules` cell: the rules attached to the campaign. */
export function CampaignRulesEditor({ target, value }: { target: AutomationTarget; value: unknown }) {
  const [opened, setOpened] = useState(false);
  return (
    <EditButton label={t('automation.rules.edit').replace('{name}', target.campaignName)} opened={opened} setOpened={setOpened}>
      <RulesForm target={target} value={value} onDone={() => setOpened(false)} />
    </EditButton>
  );
}
