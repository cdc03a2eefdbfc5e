/**
 * Sign in with email and password; the route guard then honours the redirect query. An
 * `email` query (an invitation link's invited address) fills the email in.
 */
import { Anchor } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { Form, PasswordField, SubmitButton, TextField, useZodForm } from '@/components/form';
import { t } from '@/i18n';
import { loginInputSchema, useLogin } from '../api/login';

export function LoginForm() {
  const [params] = useSearchParams();
  const form = useZodForm(loginInputSchema, { email: params.get('email') ?? '', password: '' });
  const { mutateAsync } = useLogin();
  return (
    <Form form={form} onSubmit={mutateAsync} name={t('title.login')}>
      <TextField control={form.control} name="email" type="email" label={t('auth.email')} autoComplete="email" />
      <PasswordField control={form.control} name="password" label={t('auth.password')} />
      <Anchor component={Link} to="/reset" size="sm">
        {t('auth.forgotPassword')}
      </Anchor>
      <SubmitButton fullWidth>{t('auth.signIn')}</SubmitButton>
    </Form>
  );
}
