/**
 * Create an account; on success the user is signed in and told 'Account was created'. An
 * `email` query (an invitation link's invited address) fills the email in.
 */
import { useSearchParams } from 'react-router';
import { Form, PasswordField, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { showSnackbar } from '@/lib/notifications';
import { registerInputSchema, useRegister, type RegisterInput } from '../api/register';

export function RegisterForm() {
  const [params] = useSearchParams();
  const form = useZodForm(registerInputSchema, { fullName: '', email: params.get('email') ?? '', password: '', repeatPassword: '' });
  const { mutateAsync } = useRegister();
  const onSubmit = async (values: RegisterInput) => {
    await mutateAsync(values);
    showSnackbar(t('auth.accountCreated'));
  };
  return (
    <Form form={form} onSubmit={onSubmit} name={t('title.register')}>
      <TextField control={form.control} name="fullName" label={t('auth.fullName')} autoComplete="name" />
      <TextField control={form.control} name="email" type="email" label={t('auth.email')} autoComplete="email" />
      <PasswordField control={form.control} name="password" label={t('auth.password')} autoComplete="new-password" />
      <PasswordField control={form.control} name="repeatPassword" label={t('auth.repeatPassword')} autoComplete="new-password" />
      <SubmitButton fullWidth>{t('auth.signUp')}</SubmitButton>
    </Form>
  );
}
