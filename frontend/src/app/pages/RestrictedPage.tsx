/** /restricted: a role limit, or (reason=account) a page that needs a connected ad account. */
import { useSearchParams } from 'react-router';
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';

export function RestrictedPage() {
  const [params] = useSearchParams();
  const text = params.get('reason') === 'account' ? t('restricted.account') : t('restricted.text');
  return <MessagePage title={t('title.restricted')} text={text} />;
}
