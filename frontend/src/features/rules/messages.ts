/** A message looked up by a key built at run time, with a fallback for keys it has none of. */
import { LOCALE, resources } from '@/i18n';

const messages: Record<string, string> = resources[LOCALE];

export function messageOr(key: string, fallback: string): string {
  return messages[key] ?? fallback;
}
