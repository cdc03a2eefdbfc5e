/**
 * The duplicate-campaign modal (docs/product.md#3-duplicate-campaign-settings, docs/api/creation.md
 * "Copies"), opened from the bulk-edit header of the campaigns table: the selected campaigns,
 * how many copies of each (default 1), whether the ad groups with their keywords, the
 * campaign's negative keywords and the ads are copied (all on by default), an optional bid
 * for every copied keyword and CPA goal for every copied ad group (checked with the quick
 * edits' money rules), and whether the copies start paused (default). Then the copy task's
 * progress; once it ends the table that opened it reads its rows again (`onCopied`), so the
 * copies show.
 */
import { Alert, Button, Group, List, Modal, SimpleGrid, Stack, Switch, Text } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { useController, type Control } from 'react-hook-form';
import { z } from 'zod';
import { isProPlan, LimitNotice } from '@/components/LimitNotice';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { useSession } from '@/features/auth';
import { CreationProgressPanel, type CreationOutcome } from '@/features/tasks';
import { t, tn } from '@/i18n';
import { isLimitError } from '@/lib/api-error';
import { currencyOf, formatNumber } from '@/lib/format';
import type { EntityId } from '@/lib/ids';
import { DEFAULT_COPIES, MAX_COPIED_CAMPAIGNS, MAX_COPIES, useCopyCampaigns, type CopySettings } from '../api/copy-campaigns';
import { optionalMoneySchema } from '@/lib/money';

/** The form's schema in the campaign group's currency. */
export function copySchema(currency: string | null) {
  return z.object({
    numberOfCopies: z.union([z.number(), z.string()]).transform((input, ctx) => {
      // Digits only: '1e1' or '0x2' are not what a person means by a number of copies.
      const n = typeof input === 'number' ? input : /^\d+$/.test(input.trim()) ? Number(input.trim()) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > MAX_COPIES) {
        ctx.addIssue({ code: 'custom', message: t('copy.numberRange') });
        return z.NEVER;
      }
      return n;
    }),
    adGroup: z.boolean(),
    campaignNegativeKeywords: z.boolean(),
    customAds: z.boolean(),
    cptBid: optionalMoneySchema('cptBid', currency),
    cpaGoal: optionalMoneySchema('cpaGoal', currency),
    paused: z.boolean(),
  });
}
type CopyIn = z.input<ReturnType<typeof copySchema>>;
type CopyOut = z.output<ReturnType<typeof copySchema>>;

/** The settings sent for the form's values (docs/product.md#3-duplicate-campaign-settings). */
export function copySettings(campaigns: EntityId[], values: CopyOut, currency: string): CopySettings {
  return {
    campaigns,
    numberOfCopies: values.numberOfCopies,
    adGroup: values.adGroup,
    campaignNegativeKeywords: values.campaignNegativeKeywords,
    customAds: values.customAds,
    cptBid: values.cptBid === null ? null : { amount: values.cptBid, currency },
    cpaGoal: values.cpaGoal === null ? null : { amount: values.cpaGoal, currency },
    status: values.paused ? 'PAUSED' : 'ENABLED',
  };
}

function SwitchField({ control, name, label, description }: { control: Control<CopyIn, unknown, CopyOut>; name: 'adGroup' | 'campaignNegativeKeywords' | 'customAds' | 'paused'; label: string; description?: string }) {
  const controller = useController({ control, name });
  return <Switch label={label} description={description} checked={controller.field.value} onChange={(e) => controller.field.onChange(e.currentTarget.checked)} />;
}

function CopyForm({ accountId, orgId, ids, currency, onStarted }: { accountId: string; orgId: EntityId; ids: EntityId[]; currency: string | null; onStarted: (taskId: string) => void }) {
  const schema = useMemo(() => copySchema(currency), [currency]);
  const form = useZodForm(schema, { numberOfCopies: String(DEFAULT_COPIES), adGroup: true, campaignNegativeKeywords: true, customAds: true, cptBid: '', cpaGoal: '', paused: true });
  const copy = useCopyCampaigns();
  const { user } = useSession();
  const [limit, setLimit] = useState<string | null>(null);
  const symbol = currencyOf(currency)?.symbol ?? currency ?? '';
  const tooMany = ids.length > MAX_COPIED_CAMPAIGNS;
  const submit = async (values: CopyOut) => {
    if (!currency || tooMany) return;
    setLimit(null);
    try {
      onStarted(await copy.mutateAsync({ accountId, orgId, settings: copySettings(ids, values, currency) }));
    } catch (error) {
      if (isLimitError(error)) {
        setLimit(error.meta.type);
        return;
      }
      throw error;
    }
  };
  return (
    <Form form={form} onSubmit={submit} name={t('copy.title')}>
      <Text size="sm" data-testid="copy-selected">
        {tn('copy.selectedCount', ids.length, formatNumber(ids.length, 0))}
      </Text>
      {tooMany && (
        <Alert color="red" variant="light">
          {t('copy.tooMany')}
        </Alert>
      )}
      {limit && <LimitNotice type={limit} pro={isProPlan(user?.purchase)} />}
      {/* Typed as text and checked by the schema: a number input would clamp 0 or 11 and drop
          the decimals of 1.5 on blur, changing the number of copies behind the user's back. */}
      <TextField control={form.control} name="numberOfCopies" label={t('copy.numberOfCopies')} description={t('copy.numberOfCopiesHelp')} inputMode="numeric" />
      <Stack gap="xs">
        <SwitchField control={form.control} name="adGroup" label={t('copy.adGroup')} description={t('copy.adGroupHelp')} />
        <SwitchField control={form.control} name="campaignNegativeKeywords" label={t('copy.campaignNegativeKeywords')} />
        <SwitchField control={form.control} name="customAds" label={t('copy.customAds')} description={t('copy.customAdsHelp')} />
      </Stack>
      <SimpleGrid cols={2}>
        <TextField control={form.control} name="cptBid" label={t('copy.cptBid')} description={t('copy.cptBidHelp')} inputMode="decimal" leftSection={symbol ? <Text size="sm">{symbol}</Text> : undefined} />
        <TextField control={form.control} name="cpaGoal" label={t('copy.cpaGoal')} description={t('copy.cpaGoalHelp')} inputMode="decimal" leftSection={symbol ? <Text size="sm">{symbol}</Text> : undefined} />
      </SimpleGrid>
      <SwitchField control={form.control} name="paused" label={t('copy.paused')} description={t('copy.pausedHelp')} />
      <Text size="xs" c="dimmed">
        {t('copy.names')}
      </Text>
      <Group justify="flex-end">
        <SubmitButton disabled={tooMany || !currency}>{t('copy.submit')}</SubmitButton>
      </Group>
    </Form>
  );
}

export interface DuplicateModalProps {
  opened: boolean;
  onClose: () => void;
  accountId: string;
  orgId: EntityId;
  /** The selected campaigns. */
  ids: EntityId[];
  currency: string | null;
  /** The copy task ended: the copies can be shown at once (the server wrote them from Apple's answers). */
  onCopied: () => void;
}

export function DuplicateModal({ opened, onClose, accountId, orgId, ids, currency, onCopied }: DuplicateModalProps) {
  const [taskId, setTaskId] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<CreationOutcome | null>(null);
  const onEnd = useCallback(
    (ended: CreationOutcome) => {
      setOutcome(ended);
      onCopied();
    },
    [onCopied],
  );
  const close = () => {
    onClose();
    setTaskId(null);
    setOutcome(null);
  };
  return (
    <Modal opened={opened} onClose={close} title={t('copy.title')} size="lg" closeButtonProps={{ 'aria-label': t('common.close') }}>
      <div data-testid="duplicate-modal">
        {taskId === null ? (
          <CopyForm accountId={accountId} orgId={orgId} ids={ids} currency={currency} onStarted={setTaskId} />
        ) : (
          <Stack gap="sm">
            <Text fw={600}>{outcome?.kind === 'done' ? t('copy.done') : t('copy.progress')}</Text>
            <CreationProgressPanel taskId={taskId} onEnd={onEnd} />
            {outcome?.kind === 'done' && outcome.progress.campaignsMapping.length > 0 && (
              <List size="sm" data-testid="copy-names">
                {outcome.progress.campaignsMapping.map((c) => (
                  <List.Item key={`${c.name}/${c.campaignId ?? ''}`}>{c.name}</List.Item>
                ))}
              </List>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.close')}
              </Button>
            </Group>
          </Stack>
        )}
      </div>
    </Modal>
  );
}
