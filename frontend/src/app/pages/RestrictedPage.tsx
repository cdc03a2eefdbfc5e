/**
 * /restricted: the user's role does not open the page they asked for
 * (docs/product.md#4-sign-in-account-and-session, docs/product.md#6-roles-and-route-limits).
 */
import { MessagePage } from '@/components/MessagePage';
import { t } from '@/i18n';

export function RestrictedPage() {
  return <MessagePage title={t('title.restricted')} text={t('restricted.text')} />;
}
