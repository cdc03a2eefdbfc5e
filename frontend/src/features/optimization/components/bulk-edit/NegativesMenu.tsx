/**
 * The bulk-edit bar's negatives (keywords and search terms): the selected rows' texts added as
 * negative keywords of their campaign or ad group, with a match type, as background tasks.
 */
import { Button, Popover, Stack, Text } from '@mantine/core';
import { IconBan } from '@tabler/icons-react';
import { useState } from 'react';
import { t, tn } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { idIn, type EntityId } from '@/lib/ids';
import { showSnackbar } from '@/lib/notifications';
import { useAddNegatives, type NegativeLevel, type NegativesInput } from '../../api/bulk-edit';
import type { ReportRow } from '../../api/report';
import { ReaderGuard, refusalOf } from '../QuickEdit';
import { LabelledChoice } from './LabelledChoice';

/** The texts and places of the selected rows on the page, as negatives take them. */
export function negativeItems(ids: EntityId[], rowOf: (id: EntityId) => ReportRow | null, nameOf: (id: EntityId) => string | null, page: { campaignId: EntityId | null; adGroupId: EntityId | null }): NegativesInput['items'] {
  const items: NegativesInput['items'] = [];
  for (const id of ids) {
    const row = rowOf(id);
    const text = nameOf(id);
    const campaignId = (row && idIn(row, 'campaignId')) ?? page.campaignId;
    if (!row || !text || campaignId === null) continue;
    items.push({ text, campaignId, adGroupId: idIn(row, 'adGroupId') ?? page.adGroupId });
  }
  return items;
}

export function NegativesMenu({ accountId, orgId, items, left, canEdit, onStarted }: { accountId: string; orgId: EntityId; items: NegativesInput['items']; left: number; canEdit: boolean; onStarted: (taskIds: string[]) => void }) {
  const add = useAddNegatives();
  const [open, setOpen] = useState(false);
  const [level, setLevel] = useState<NegativeLevel>('campaign');
  const [matchType, setMatchType] = useState<'EXACT' | 'BROAD'>('EXACT');
  const texts = new Set(items.filter((i) => level === 'campaign' || i.adGroupId !== null).map((i) => i.text)).size;
  const run = () =>
    add.mutate(
      { accountId, orgId, items, level, matchType },
      {
        onSuccess: (started) => {
          setOpen(false);
          onStarted(started.map((s) => s.taskId));
          const total = started.reduce((sum, s) => sum + s.total, 0);
          showSnackbar(`${t('bulk.started')} (${tn('bulk.itemCount', total, formatNumber(total, 0))})`, 'info');
        },
        onError: (e) => showSnackbar(refusalOf(e), 'danger'),
      },
    );
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" shadow="md" width={280} trapFocus>
      <Popover.Target>
        <ReaderGuard canEdit={canEdit}>
          <Button size="xs" variant="default" leftSection={<IconBan size={14} />} disabled={!canEdit} loading={add.isPending} onClick={() => setOpen((o) => !o)}>
            {t('bulk.negatives')}
          </Button>
        </ReaderGuard>
      </Popover.Target>
      <Popover.Dropdown data-testid="negatives-form">
        <Stack gap="xs">
          <LabelledChoice
            label={t('bulk.negativesLevel')}
            value={level}
            onChange={setLevel}
            data={[
              { value: 'campaign', label: t('bulk.negativesCampaign') },
              { value: 'adGroup', label: t('bulk.negativesAdGroup') },
            ]}
          />
          <LabelledChoice
            label={t('bulk.negativesMatch')}
            value={matchType}
            onChange={setMatchType}
            data={[
              { value: 'EXACT', label: t('bulk.negativesExact') },
              { value: 'BROAD', label: t('bulk.negativesBroad') },
            ]}
          />
          <Text size="xs" c="dimmed" data-testid="negatives-count">
            {tn('bulk.negativesTextCount', texts, formatNumber(texts, 0))}
            {left > 0 ? ` · ${tn('bulk.notOnPageCount', left, formatNumber(left, 0))}` : ''}
          </Text>
          <Button size="xs" disabled={texts === 0} loading={add.isPending} onClick={run}>
            {t('bulk.negativesAdd')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
