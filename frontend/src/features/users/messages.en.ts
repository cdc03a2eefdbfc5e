/** The copy of the account settings (features/users), in English. Merged into `src/i18n/en.ts`; every key has its twin in `messages.ru.ts`. */
export const usersEn = {
  'settings.general': 'General',
  'settings.name': 'Name',
  'settings.email': 'Email',
  'settings.role': 'Role',
  'settings.alternativeInvoiceEmail': 'Alternative invoice email',
  'settings.alternativeInvoiceEmailHint': 'Invoices are also sent to this address. Leave empty to use only your account email.',
  'settings.save': 'Save',
  'settings.saved': 'Changes saved',
  'settings.changePassword': 'Change password',
} as const;
