/** Password screens: forgot → recovery → successfullyChanged, or change when signed in. */
import { Stack } from '@mantine/core';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { t } from '@/i18n';
import { useSession } from '../api/relogin';
import { CenteredCard } from './CenteredCard';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ForgotPasswordForm } from './ForgotPasswordForm';
import { initialPasswordMode, PASSWORD_MODE_TITLES, type PasswordEntry, type PasswordMode } from './password-modes';
import { RecoveryForm } from './RecoveryForm';
import { SuccessfullyChanged } from './SuccessfullyChanged';

export function PasswordScreen({ entry }: { entry: PasswordEntry }) {
  const [params] = useSearchParams();
  const { user } = useSession();
  const code = params.get('code') ?? '';
  const [mode, setMode] = useState<PasswordMode>(() => initialPasswordMode(entry, code, user !== null));
  const [codeSent, setCodeSent] = useState(false);
  const done = () => setMode('successfullyChanged');

  const content = {
    forgot: <ForgotPasswordForm onSent={() => { setCodeSent(true); setMode('recovery'); }} />,
    recovery: <RecoveryForm code={code} codeSent={codeSent} onDone={done} onRestart={() => setMode('forgot')} />,
    change: <ChangePasswordForm onDone={done} />,
    successfullyChanged: <SuccessfullyChanged signedIn={user !== null} />,
  }[mode];

  if (entry === 'settings') return <Stack maw={420}>{content}</Stack>;
  return <CenteredCard title={t(PASSWORD_MODE_TITLES[mode])}>{content}</CenteredCard>;
}
