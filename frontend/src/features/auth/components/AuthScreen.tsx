/**
 * The auth screen (/login, /register): one screen, register is a mode of it. Switching
 * between the two keeps the query (an invitation's redirect and email). A session the server
 * ended (a removal from a workspace) is said here once, in the server's words.
 */
import { Alert, Anchor, Text } from '@mantine/core';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { t } from '@/i18n';
import { takeRemovalNote } from '../session-end';
import { CenteredCard } from './CenteredCard';
import { LoginForm } from './LoginForm';
import { RegisterForm } from './RegisterForm';

export type AuthMode = 'login' | 'register';

export function AuthScreen({ mode }: { mode: AuthMode }) {
  const isLogin = mode === 'login';
  const { search } = useLocation();
  // Why the last session ended, when the server ended it (a removal from a workspace).
  const [note] = useState(takeRemovalNote);
  return (
    <CenteredCard title={isLogin ? t('title.login') : t('title.register')}>
      {note && (
        <Alert color="orange" role="status" title={t('auth.sessionEnded')} data-testid="session-ended">
          {note}. {t('auth.sessionEndedHint')}
        </Alert>
      )}
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
