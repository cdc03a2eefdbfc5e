/** Typed i18n resources. The spec fixes the locale to English; Russian is kept complete. */
import { en, type MessageKey, type Messages } from './en';
import { ru } from './ru';

export const resources = { en, ru } satisfies Record<string, Messages>;
export type Locale = keyof typeof resources;
export type { MessageKey };

export const LOCALE: Locale = 'en';

export function t(key: MessageKey): string {
  return resources[LOCALE][key];
}
