/** Any unknown path (layout hidden). */
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';

export function NotFoundPage() {
  return <MessagePage title={t('title.notFound')} text={t('notFound.text')} />;
}
