/**
 * The provider's pull (docs/api/attribution.md "Pull"), for providers whose reporting API
 * Searchdeck reads: the API token masked with the app ids, the last successful pull and the last
 * error in the user's words; Set (or Replace) opens the form, Remove stops the pulls (confirmed).
 */
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { Form, PasswordField, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { showSnackbar } from '@/lib/notifications';
import type { Integration } from '../api/get-integrations';
import { useRemovePull } from '../api/remove-pull';
import { setPullInputSchema, useSetPull, type SetPullInput } from '../api/set-pull';
import { fill } from '../providers';
import { ConfirmModal } from './ConfirmModal';
import { EditorGuard } from './EditorGuard';

export function PullCard({ item, canEdit }: { item: Integration; canEdit: boolean }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const remove = useRemovePull();
  if (!item.pullAvailable) return null;
  const pull = item.pull ?? null;
  const onRemove = () =>
    remove.mutate(item.provider, {
      onSuccess: () => {
        setConfirming(false);
        showSnackbar(fill(t('attribution.pull.removed'), { provider: item.title }));
      },
      onError: (error) => {
        setConfirming(false);
        showSnackbar(errorMessage(error), 'danger');
      },
    });
  return (
    <Card withBorder padding="lg" data-testid="pull-card">
      <Stack gap="sm">
        <Title order={3} size="h5">
          {t('attribution.pull.title')}
        </Title>
        <Text size="sm" c="dimmed" maw={760}>
          {fill(t('attribution.pull.text'), { provider: item.title })}
        </Text>
        {pull && (
          <Stack gap={4}>
            <Text size="sm">{fill(t('attribution.pull.token'), { token: pull.token, apps: pull.appIds.join(', ') })}</Text>
            <Text size="sm" c="dimmed">
              {pull.lastSuccessAt ? fill(t('attribution.pull.lastSuccess'), { date: formatDateTime(pull.lastSuccessAt) }) : t('attribution.pull.pending')}
            </Text>
            {pull.lastError && (
              <Alert color="red" role="alert" title={t('attribution.pull.failed')}>
                {pull.lastError}
              </Alert>
            )}
          </Stack>
        )}
        {editing ? (
          <PullForm item={item} onDone={() => setEditing(false)} />
        ) : (
          <Group gap="sm">
            <EditorGuard canEdit={canEdit}>
              <Button variant="light" onClick={() => setEditing(true)}>
                {pull ? t('attribution.pull.replace') : t('attribution.pull.set')}
              </Button>
            </EditorGuard>
            {pull && (
              <EditorGuard canEdit={canEdit}>
                <Button color="red" variant="subtle" onClick={() => setConfirming(true)}>
                  {t('attribution.pull.remove')}
                </Button>
              </EditorGuard>
            )}
          </Group>
        )}
      </Stack>
      <ConfirmModal opened={confirming} title={fill(t('attribution.pull.removeTitle'), { provider: item.title })} text={t('attribution.pull.removeText')} confirmLabel={t('attribution.pull.remove')} onConfirm={onRemove} onClose={() => setConfirming(false)} pending={remove.isPending} />
    </Card>
  );
}

function PullForm({ item, onDone }: { item: Integration; onDone: () => void }) {
  const pull = item.pull ?? null;
  const form = useZodForm(setPullInputSchema, {
    token: '',
    appIds: pull?.appIds.join(', ') ?? '',
    currency: pull?.currency ?? 'USD',
    events: pull?.events.join(', ') ?? '',
  });
  const { mutateAsync } = useSetPull(item.provider);
  const onSubmit = async (values: SetPullInput) => {
    await mutateAsync(values);
    showSnackbar(fill(t('attribution.pull.saved'), { provider: item.title }));
    onDone();
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('attribution.pull.title')}>
      <PasswordField control={form.control} name="token" label={t('attribution.pull.tokenLabel')} description={t('attribution.pull.tokenHint')} autoComplete="off" />
      <TextField control={form.control} name="appIds" label={t('attribution.pull.appIds')} description={t('attribution.pull.appIdsHint')} />
      <TextField control={form.control} name="currency" label={t('attribution.pull.currency')} description={t('attribution.pull.currencyHint')} />
      <TextField control={form.control} name="events" label={t('attribution.pull.events')} description={t('attribution.pull.eventsHint')} />
      <Group>
        <SubmitButton>{t('attribution.pull.save')}</SubmitButton>
        <Button variant="subtle" onClick={onDone}>
          {t('attribution.pull.cancel')}
        </Button>
      </Group>
    </Form>
  );
}
