import { useEffect } from 'react';
import { t } from '@/i18n';

/** Sets the browser tab title to "<page> · Searchdeck". */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    const appName = t('app.name');
    document.title = title === appName ? appName : `${title} · ${appName}`;
  }, [title]);
}
