/** Mode successfullyChanged: confirmation with the way on (sign in, or back to settings). */
import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { t } from '@/i18n';

export function SuccessfullyChanged({ signedIn }: { signedIn: boolean }) {
  return (
    <>
      <Text role="status">{t('password.changed')}</Text>
      <Anchor component={Link} to={signedIn ? '/settings/general' : '/login'}>
        {signedIn ? t('password.backToSettings') : t('password.backToLogin')}
      </Anchor>
    </>
  );
}
