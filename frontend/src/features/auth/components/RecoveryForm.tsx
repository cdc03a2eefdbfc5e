/** Mode recovery: the mailed code (prefilled from ?code=) and a new password. */
import { Anchor, Text } from '@mantine/core';
import { Form, PasswordField, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { changePasswordByCodeInputSchema, useChangePasswordByCode } from '../api/change-password-by-code';

interface RecoveryFormProps {
  code: string;
  codeSent: boolean;
  onDone: () => void;
  onRestart: () => void;
}

export function RecoveryForm({ code, codeSent, onDone, onRestart }: RecoveryFormProps) {
  const form = useZodForm(changePasswordByCodeInputSchema, { code, newPassword: '', repeatPassword: '' });
  const { mutateAsync } = useChangePasswordByCode();
  return (
    <Form form={form} onSubmit={(values) => mutateAsync(values).then(onDone)} name={t('title.reset')}>
      {codeSent && <Text size="sm">{t('password.codeSent')}</Text>}
      <TextField control={form.control} name="code" label={t('password.code')} autoComplete="one-time-code" />
      <PasswordField control={form.control} name="newPassword" label={t('password.newPassword')} autoComplete="new-password" />
      <PasswordField control={form.control} name="repeatPassword" label={t('auth.repeatPassword')} autoComplete="new-password" />
      <SubmitButton fullWidth>{t('password.save')}</SubmitButton>
      <Anchor component="button" type="button" size="sm" onClick={onRestart}>
        {t('password.backToForgot')}
      </Anchor>
    </Form>
  );
}
