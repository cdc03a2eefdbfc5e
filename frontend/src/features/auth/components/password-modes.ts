/** The modes of the password screen (docs/product.md#2-other-ui) and the one it opens in. */
import type { MessageKey } from '@/i18n';

export type PasswordMode = 'forgot' | 'change' | 'successfullyChanged' | 'recovery';

/** Which route opened the screen: /reset, /change or /settings/password. */
export type PasswordEntry = 'reset' | 'change' | 'settings';

export function initialPasswordMode(entry: PasswordEntry, code: string, signedIn: boolean): PasswordMode {
  if (entry === 'settings') return 'change';
  if (code) return 'recovery';
  return entry === 'change' && signedIn ? 'change' : 'forgot';
}

export const PASSWORD_MODE_TITLES: Record<PasswordMode, MessageKey> = {
  forgot: 'title.reset',
  recovery: 'title.reset',
  change: 'title.change',
  successfullyChanged: 'password.changedTitle',
};
