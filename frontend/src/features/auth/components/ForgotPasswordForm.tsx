/** Mode forgot: ask for the account email and mail a recovery code to it. */
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { Form, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { recoveryPasswordInputSchema, useRecoveryPassword, type RecoveryPasswordInput } from '../api/recovery-password';

export function ForgotPasswordForm({ onSent }: { onSent: () => void }) {
  const form = useZodForm(recoveryPasswordInputSchema, { email: '' });
  const { mutateAsync } = useRecoveryPassword();
  const onSubmit = async (values: RecoveryPasswordInput) => {
    await mutateAsync(values);
    onSent();
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('title.reset')}>
      <Text size="sm">{t('password.forgotIntro')}</Text>
      <TextField control={form.control} name="email" type="email" label={t('auth.email')} autoComplete="email" />
      <SubmitButton fullWidth>{t('password.sendCode')}</SubmitButton>
      <Anchor component={Link} to="/login" size="sm" ta="center">
        {t('password.backToLogin')}
      </Anchor>
    </Form>
  );
}
