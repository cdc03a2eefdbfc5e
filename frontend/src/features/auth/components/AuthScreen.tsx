/**
 * The auth screen (/login, /register): one screen, register is a mode of it. Switching
 * between the two keeps the query (an invitation's redirect and email).
 */
import { Anchor, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router';
import { t } from '@/i18n';
import { CenteredCard } from './CenteredCard';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

export type AuthMode = 'login' | 'register';

export function AuthScreen({ mode }: { mode: AuthMode }) {
  const isLogin = mode === 'login';
  const { search } = useLocation();
  return (
    <CenteredCard title={isLogin ? t('title.login') : t('title.register')}>
      {isLogin ? <LoginForm /> : <RegisterForm />}
      <Text size="sm" ta="center">
        {isLogin ? t('auth.noAccount') : t('auth.haveAccount')}{' '}
        <Anchor component={Link} to={{ pathname: isLogin ? '/register' : '/login', search }}>
          {isLogin ? t('auth.signUp') : t('auth.signIn')}
        </Anchor>
      </Text>
    </CenteredCard>
  );
}
