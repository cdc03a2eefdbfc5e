/** The public face of the tasks feature. */
export { useTask } from './api/get-task';
export { useTasks } from './api/get-tasks';
export type { Task } from './api/task';
export { TasksPopover } from './components/TasksPopover';
export { taskProgress } from './progress';
