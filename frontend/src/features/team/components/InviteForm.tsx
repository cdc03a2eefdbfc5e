/**
 * Invite by email with a role (`POST team/one/{email}/{role}`). The server names the email
 * `a` and the role `b` (path parameters): their errors go to the fields here, and
 * ALREADY_A_MEMBER is said under the email. Admins are not offered the Owner role.
 */
import { Group, Select, Text } from '@mantine/core';
import { useController, type Control } from 'react-hook-form';
import { z } from 'zod';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { roleLabel, roleSchema, type Role } from '@/features/auth';
import { t } from '@/i18n';
import { ApiError } from '@/lib/api-error';
import { showSnackbar } from '@/lib/notifications';
import { emailField } from '@/lib/validation';
import { useInvite } from '../api/invite';
import { assignableRoles, teamErrorMessage } from '../rules';

const inviteSchema = z.object({ email: emailField(), role: roleSchema });
type InviteValues = z.output<typeof inviteSchema>;
type InviteInput = z.input<typeof inviteSchema>;

/** The server's refusal with its path-parameter fields named as the form's. */
export function asInviteError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const fields: Record<string, string> = { a: 'email', b: 'role' };
  const errors = error.errors.map((e) => ({ field: fields[e.field] ?? e.field, message: e.message }));
  if (error.message === 'ALREADY_A_MEMBER') errors.push({ field: 'email', message: teamErrorMessage(error) });
  return new ApiError(error.status, teamErrorMessage(error), errors, error.meta);
}

function RoleField({ control, roles }: { control: Control<InviteInput, unknown, InviteValues>; roles: Role[] }) {
  const { field, fieldState } = useController({ control, name: 'role' });
  return (
    <Select
      label={t('team.inviteRole')}
      data={roles.map((r) => ({ value: r, label: roleLabel(r) }))}
      value={field.value}
      onChange={(v) => v && field.onChange(v)}
      allowDeselect={false}
      error={fieldState.error?.message}
      w={160}
    />
  );
}

export function InviteForm({ caller }: { caller: Role }) {
  const form = useZodForm<InviteInput, InviteValues>(inviteSchema, { email: '', role: 'writer' });
  const invite = useInvite();
  const onSubmit = async (values: InviteValues) => {
    try {
      await invite.mutateAsync(values);
    } catch (error) {
      throw asInviteError(error);
    }
    showSnackbar(t('team.invited').replace('{email}', values.email));
    form.reset({ email: '', role: values.role });
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('team.inviteTitle')}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        <div style={{ flex: '1 1 260px' }}>
          <TextField control={form.control} name="email" type="email" label={t('team.inviteEmail')} autoComplete="off" />
        </div>
        <RoleField control={form.control} roles={assignableRoles(caller)} />
        <SubmitButton mt={25}>{t('team.invite')}</SubmitButton>
      </Group>
      <Text size="xs" c="dimmed" mt={-8}>
        {t('team.inviteHint')}
      </Text>
    </Form>
  );
}
