/** /restricted: the user's role does not open the page they asked for (spec §4, §6). */
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';

export function RestrictedPage() {
  return <MessagePage title={t('title.restricted')} text={t('restricted.text')} />;
}
