/**
 * "Alerts: Slack incoming webhook" (owners and admins): whether the workspace has one (its
 * address masked, as `GET alerts/slack` answers it), a form to set one (`PUT alerts/slack`
 * {url}, https only) and a button to clear it ({url: null}).
 */
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { z } from 'zod';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { useSaveSlack, useSlack } from '../api/alerts';

const slackSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, t('common.required'))
    .refine((url) => /^https:\/\/[^\s/]+\/\S*$/.test(url), t('rules.slack.https')),
});

export function SlackSection() {
  const slack = useSlack(true);
  const save = useSaveSlack();
  const form = useZodForm(slackSchema, { url: '' });
  const onSave = async ({ url }: { url: string }) => {
    await save.mutateAsync(url);
    form.reset({ url: '' });
    showSnackbar(t('rules.slack.saved'));
  };
  const clear = async () => {
    try {
      await save.mutateAsync(null);
      showSnackbar(t('rules.slack.cleared'));
    } catch (error) {
      showSnackbar(errorMessage(error), 'danger');
    }
  };
  return (
    <Card withBorder padding="md" component="section" aria-label={t('rules.slack.title')}>
      <Stack gap="sm">
        <Group gap="sm">
          <Title order={4}>{t('rules.slack.title')}</Title>
          {slack.data && (
            <Badge variant="light" color={slack.data.configured ? 'green' : 'gray'}>
              {slack.data.configured ? t('rules.slack.on') : t('rules.slack.off')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('rules.slack.help')}
        </Text>
        {slack.data?.configured && (
          <Group gap="sm">
            <Text size="sm" ff="monospace" data-testid="slack-url">
              {slack.data.url}
            </Text>
            <Button size="xs" variant="subtle" color="red" onClick={() => void clear()} loading={save.isPending && save.variables === null}>
              {t('rules.slack.clear')}
            </Button>
          </Group>
        )}
        <Form form={form} onSubmit={onSave} name={t('rules.slack.title')}>
          <Group align="flex-start" grow maw={720}>
            <TextField control={form.control} name="url" label={slack.data?.configured ? t('rules.slack.replace') : t('rules.slack.url')} />
            <SubmitButton mt={25} style={{ flexGrow: 0 }}>{t('rules.slack.save')}</SubmitButton>
          </Group>
        </Form>
      </Stack>
    </Card>
  );
}
