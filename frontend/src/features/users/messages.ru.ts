/** The copy of the account settings (features/users), in Russian: the keys of `messages.en.ts`, each translated. Merged into `src/i18n/ru.ts`. */
import type { usersEn } from './messages.en';

export const usersRu = {
  'settings.general': 'Общие',
  'settings.name': 'Имя',
  'settings.email': 'Почта',
  'settings.role': 'Роль',
  'settings.alternativeInvoiceEmail': 'Дополнительная почта для счетов',
  'settings.alternativeInvoiceEmailHint': 'Счета также отправляются на этот адрес. Оставьте пустым, чтобы использовать только почту аккаунта.',
  'settings.save': 'Сохранить',
  'settings.saved': 'Изменения сохранены',
  'settings.changePassword': 'Сменить пароль',
} satisfies Record<keyof typeof usersEn, string>;
