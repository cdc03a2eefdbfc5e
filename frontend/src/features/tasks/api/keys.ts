/** Query keys of the tasks feature. */
import type { Task } from './task';

export const taskKeys = {
  all: ['tasks'] as const,
  list: () => [...taskKeys.all, 'list'] as const,
  detail: (id: Task['id']) => [...taskKeys.all, 'detail', String(id)] as const,
};
