/** The copy of the background tasks (features/tasks), in English. Merged into `src/i18n/en.ts`; every key has its twin in `messages.ru.ts`. */
export const tasksEn = {
  'tasks.title': 'Background tasks',
  'tasks.empty': 'No background tasks',
  'tasks.failed': 'Failed',
  'tasks.done': 'Done',
  'tasks.collectKeywords': 'Keyword collection',
  'tasks.candidates': 'candidates found',
} as const;
