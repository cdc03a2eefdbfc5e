/** The public face of the tasks feature. */
export { useTask } from './api/get-task';
export { useTaskOutcome } from './hooks/useTaskOutcome';
export { tasksQuery, useTasks } from './api/get-tasks';
export { taskKeys } from './api/keys';
export { detailsAs, isRunning, taskSchema, taskTiming, type Task } from './api/task';
export { TasksPopover } from './components/TasksPopover';
export type { TaskPlace } from './components/TaskItem';
export { taskProgress } from './progress';
export { runningSync, SYNC_KINDS } from './sync';
export { creationOutcome, creationProgressOf, type CreationOutcome, type CreationProgress } from './creation-progress';
export { CreationProgressPanel } from './components/CreationProgressPanel';
