/** Mode change: the signed-in user's current password and a new one. */
import { Group } from '@mantine/core';
import { Form, PasswordField, SubmitButton, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { changePasswordInputSchema, useChangePassword } from '../api/change-password';

export function ChangePasswordForm({ onDone }: { onDone: () => void }) {
  const form = useZodForm(changePasswordInputSchema, { oldPassword: '', newPassword: '', repeatPassword: '' });
  const { mutateAsync } = useChangePassword();
  return (
    <Form form={form} onSubmit={(values) => mutateAsync(values).then(onDone)} name={t('title.change')}>
      <PasswordField control={form.control} name="oldPassword" label={t('password.oldPassword')} />
      <PasswordField control={form.control} name="newPassword" label={t('password.newPassword')} autoComplete="new-password" />
      <PasswordField control={form.control} name="repeatPassword" label={t('auth.repeatPassword')} autoComplete="new-password" />
      <Group>
        <SubmitButton>{t('password.save')}</SubmitButton>
      </Group>
    </Form>
  );
}
