/**
 * Settings › General's workspace name (issue 42 item 17): owners and admins rename the
 * workspace (the server's field messages under the field); editors and viewers read it.
 * A workspace is named at sign-up "<name>'s workspace"; invitations name it.
 */
import { Box, Group, Stack, Text } from '@mantine/core';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { renameInputSchema, useRenameWorkspace, type RenameInput } from '../api/rename-workspace';
import { useWorkspaces, type Workspace } from '../api/workspaces';

function RenameForm({ workspace }: { workspace: Workspace }) {
  const form = useZodForm(renameInputSchema, { name: workspace.name });
  const { mutateAsync } = useRenameWorkspace();
  const onSubmit = async (values: RenameInput) => {
    const renamed = await mutateAsync(values);
    form.reset({ name: renamed.name });
    showSnackbar(t('workspace.renamed'));
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('workspace.name')}>
      <TextField control={form.control} name="name" label={t('workspace.name')} description={t('workspace.nameHint')} />
      <Group>
        <SubmitButton>{t('settings.save')}</SubmitButton>
      </Group>
    </Form>
  );
}

export function WorkspaceNameCard() {
  const { user } = useSession();
  const { data } = useWorkspaces(user !== null);
  const workspace = data?.find((w) => w.current);
  if (!user || !workspace) return null;
  const canRename = user.permission === 'owner' || user.permission === 'admin';
  return (
    <Box maw={480} data-testid="workspace-name">
      {canRename ? (
        <RenameForm key={workspace.id} workspace={workspace} />
      ) : (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('workspace.name')}
          </Text>
          <Text size="sm">{workspace.name}</Text>
          <Text size="xs" c="dimmed">
            {t('workspace.nameReadOnly')}
          </Text>
        </Stack>
      )}
    </Box>
  );
}
