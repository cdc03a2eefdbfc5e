/**
 * The header's account selector, which comes with the accounts screens' chunk: the app frame
 * asks for it with the layout's (AppFrame), so the header renders it at once instead of
 * showing its placeholder, whose fallback would hold back the screen's first paint
 * (lib/lazy-component).
 */
import { lazyScreen } from '../lazy/lazy-screen';

export const AccountSelector = lazyScreen(() => import('@/features/accounts/screens'), 'AccountSelector');
