/**
 * The rule's actions (1 to 5, at most one of each type): the add menu offers the actions of
 * the rule's level not taken yet; each action shows its own fields (amounts in the campaign
 * group's currency, changes by a percentage or an amount, the target of a bid, where a search
 * term goes, the alert's channels).
 */
import { ActionIcon, Button, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useFieldArray, useWatch } from 'react-hook-form';
import { TextField } from '@/components/form';
import { t } from '@/i18n';
import type { PickerCampaign } from '../api/campaigns';
import { useAdGroups } from '../api/campaigns';
import type { GroupScope } from '../api/rules';
import { actionLabel } from '../describe';
import { newAction } from '../form-values';
import { messageOr } from '../messages';
import { ACTION_LEVELS, actionsAt, BID_TARGETS, isReturnTarget, MATCH_TYPES, MAX_ACTIONS, needsTargetAmount, type ActionType, type RuleLevel } from '../schema';
import { useConversionLock } from '../hooks/useConversionLock';
import { ListError, MultiSelectField, SelectField, TagsField, useErrorAt, type RuleControl } from './fields';

const byData = () => [
  { value: 'PERCENT', label: t('rules.action.byPercent') },
  { value: 'AMOUNT', label: t('rules.action.byAmount') },
];
const matchData = () => MATCH_TYPES.map((m) => ({ value: m, label: messageOr(`rules.match.${m}`, m) }));

function Unit({ text }: { text: string | null | undefined }) {
  return text ? (
    <Text size="xs" c="dimmed">
      {text}
    </Text>
  ) : null;
}

function AddKeywordFields({ control, i, scope, campaigns }: { control: RuleControl; i: number; scope: GroupScope; campaigns: PickerCampaign[] }) {
  const ruleCampaigns = useWatch({ control, name: 'campaignIds' });
  const campaignId = useWatch({ control, name: `actions.${i}.campaignId` });
  const adGroups = useAdGroups(scope, typeof campaignId === 'string' ? campaignId : '');
  const adGroupId = useWatch({ control, name: `actions.${i}.adGroupId` });
  const name = (id: string) => campaigns.find((c) => c.campaignId === id)?.campaignName ?? id;
  return (
    <>
      <SelectField
        control={control}
        name={`actions.${i}.campaignId`}
        label={t('rules.action.campaign')}
        w={220}
        data={ruleCampaigns.map((id) => ({ value: id, label: name(id) }))}
      />
      <SelectField
        control={control}
        name={`actions.${i}.adGroupId`}
        label={t('rules.action.adGroup')}
        w={220}
        data={(adGroups.data ?? [])
          .map((g) => ({ value: g.adGroupId, label: g.adGroupName }))
          .concat(adGroupId && !(adGroups.data ?? []).some((g) => g.adGroupId === adGroupId) ? [{ value: adGroupId, label: adGroupId }] : [])}
      />
      <SelectField control={control} name={`actions.${i}.matchType`} label={t('rules.cond.matchType')} w={120} data={matchData()} />
    </>
  );
}

function ActionFields({ control, i, currency, scope, campaigns }: { control: RuleControl; i: number; currency: string | null; scope: GroupScope; campaigns: PickerCampaign[] }) {
  const action = useWatch({ control, name: `actions.${i}` });
  const conversionsOpen = useConversionLock().length === 0;
  switch (action.type) {
    case 'pause':
    case 'enable':
      return null;
    case 'setBid':
    case 'setBudget':
      return <TextField control={control} name={`actions.${i}.amount`} label={t(action.type === 'setBid' ? 'rules.action.bid' : 'rules.action.budget')} inputMode="decimal" rightSection={<Unit text={currency} />} rightSectionWidth={48} />;
    case 'changeBid':
    case 'changeBudget':
      return (
        <>
          <SelectField control={control} name={`actions.${i}.by`} label={t('rules.action.by')} w={160} data={byData()} />
          <TextField
            control={control}
            name={`actions.${i}.value`}
            label={t('rules.action.change')}
            description={t('rules.action.changeHelp')}
            inputMode="decimal"
            rightSection={<Unit text={action.by === 'PERCENT' ? '%' : currency} />}
            rightSectionWidth={48}
          />
        </>
      );
    case 'bidToTarget': {
      // A ROAS target is typed in percent (sent as a fraction); the conversion targets have
      // no goal to fall back on, and are offered only where the plan shows Conversions.
      const roas = isReturnTarget(action.target);
      return (
        <>
          <SelectField
            control={control}
            name={`actions.${i}.target`}
            label={t('rules.action.targetType')}
            w={200}
            data={BID_TARGETS.filter((target) => !needsTargetAmount(target) || conversionsOpen || target === action.target).map((target) => ({ value: target, label: messageOr(`rules.target.${target}`, target) }))}
          />
          <TextField
            control={control}
            name={`actions.${i}.amount`}
            label={t('rules.action.target')}
            description={needsTargetAmount(action.target) ? undefined : t('rules.action.targetHelp')}
            inputMode="decimal"
            rightSection={<Unit text={roas ? '%' : currency} />}
            rightSectionWidth={48}
          />
          <TextField control={control} name={`actions.${i}.maxStepPercent`} label={t('rules.action.maxStep')} inputMode="decimal" rightSection={<Unit text="%" />} />
        </>
      );
    }
    case 'addKeyword':
      return (
        <>
          <AddKeywordFields control={control} i={i} scope={scope} campaigns={campaigns} />
          <TextField control={control} name={`actions.${i}.bid`} label={t('rules.action.bid')} description={t('rules.action.bidHelp')} inputMode="decimal" rightSection={<Unit text={currency} />} rightSectionWidth={48} />
        </>
      );
    case 'addNegative':
      return (
        <>
          <SelectField
            control={control}
            name={`actions.${i}.where`}
            label={t('rules.action.where')}
            w={200}
            data={[
              { value: 'AD_GROUP', label: t('rules.action.whereAdGroup') },
              { value: 'CAMPAIGN', label: t('rules.action.whereCampaign') },
            ]}
          />
          <SelectField control={control} name={`actions.${i}.matchType`} label={t('rules.cond.matchType')} w={120} data={matchData()} />
        </>
      );
    case 'alert':
      return (
        <>
          <MultiSelectField
            control={control}
            name={`actions.${i}.channels`}
            label={t('rules.action.channels')}
            w={220}
            data={[
              { value: 'EMAIL', label: t('rules.action.email') },
              { value: 'SLACK', label: 'Slack' },
            ]}
          />
          <TagsField control={control} name={`actions.${i}.emails`} label={t('rules.action.emails')} description={t('rules.action.emailsHelp')} w={320} />
        </>
      );
  }
}

function ActionTitle({ control, i, level }: { control: RuleControl; i: number; level: RuleLevel }) {
  const type: ActionType = useWatch({ control, name: `actions.${i}.type` });
  const error = useErrorAt(control, `actions.${i}.type`) ?? (ACTION_LEVELS[type].includes(level) ? undefined : t('rules.error.actionLevel'));
  return (
    <Stack gap={2}>
      <Text fw={600} size="sm">
        {actionLabel(type)}
      </Text>
      {error && (
        <Text size="xs" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}

export function ActionsEditor({ control, level, currency, scope, campaigns }: { control: RuleControl; level: RuleLevel; currency: string | null; scope: GroupScope; campaigns: PickerCampaign[] }) {
  const { fields, append, remove } = useFieldArray({ control, name: 'actions' });
  const actions = useWatch({ control, name: 'actions' });
  const campaignIds = useWatch({ control, name: 'campaignIds' });
  const taken = new Set(actions.map((a) => a.type));
  const available = actionsAt(level).filter((type) => !taken.has(type));
  return (
    <Stack gap="sm">
      {fields.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('rules.noActions')}
        </Text>
      )}
      {fields.map((field, i) => (
        <Card key={field.id} withBorder padding="sm" data-testid={`action-${i}`}>
          <Group align="flex-start" justify="space-between" wrap="nowrap">
            <Group align="flex-start" gap="sm" wrap="wrap">
              <ActionTitle control={control} i={i} level={level} />
              <ActionFields control={control} i={i} currency={currency} scope={scope} campaigns={campaigns} />
            </Group>
            <ActionIcon variant="subtle" color="gray" aria-label={t('rules.removeAction').replace('{action}', actionLabel(field.type))} onClick={() => remove(i)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        </Card>
      ))}
      <ListError control={control} name="actions" />
      <Group>
        <Menu position="bottom-start" withinPortal>
          <Menu.Target>
            <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} disabled={fields.length >= MAX_ACTIONS || available.length === 0}>
              {t('rules.addAction')}
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {available.map((type) => (
              <Menu.Item key={type} onClick={() => append(newAction(type, campaignIds))}>
                {actionLabel(type)}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      </Group>
    </Stack>
  );
}
