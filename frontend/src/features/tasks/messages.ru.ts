/** The copy of the background tasks (features/tasks), in Russian: the keys of `messages.en.ts`, each translated. Merged into `src/i18n/ru.ts`. */
import type { tasksEn } from './messages.en';

export const tasksRu = {
  'tasks.title': 'Фоновые задачи',
  'tasks.empty': 'Фоновых задач нет',
  'tasks.failed': 'Ошибка',
  'tasks.done': 'Готово',
  'tasks.collectKeywords': 'Сбор ключевых слов',
  'tasks.candidates': 'найдено кандидатов',
} satisfies Record<keyof typeof tasksEn, string>;
