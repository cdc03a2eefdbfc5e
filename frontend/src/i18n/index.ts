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

/** The keys with plural forms: `<key>.one`, `.few`, `.many` and `.other` all exist. */
type PluralBase<K> = K extends `${infer Base}.other` ? (`${Base}.one` extends MessageKey ? Base : never) : never;
export type PluralKey = PluralBase<MessageKey>;

const pluralRules = new Map<string, Intl.PluralRules>();

/** The plural category of `count` in `locale` (CLDR rules through `Intl.PluralRules`). */
function category(count: number, locale: Locale): Intl.LDMLPluralRule {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count);
}

/**
 * The message of `key` in the plural form of `count` ('1 row', '2 rows'; Russian 'строка',
 * 'строки', 'строк'), with `{count}` replaced by `shown` (the count as the screen formats it).
 */
export function tn(key: PluralKey, count: number, shown: string = String(count), locale: Locale = LOCALE): string {
  const messages: Record<string, string> = resources[locale];
  const text = messages[`${key}.${category(count, locale)}`] ?? messages[`${key}.other`] ?? key;
  return text.replace('{count}', shown);
}
