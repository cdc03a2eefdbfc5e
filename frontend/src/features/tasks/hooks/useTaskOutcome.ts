/**
 * Follows a started task (a rule run now, an undo of a run or of a notification) through the tasks feature's poll until it
 * finishes or fails, then tells the caller once.
 */
import { useEffect, useRef, useState } from 'react';
import { isRunning, type Task } from '../api/task';
import { useTask } from '../api/get-task';

export function useTaskOutcome(onDone: (task: Task) => void) {
  const [taskId, setTaskId] = useState<Task['id'] | null>(null);
  const task = useTask(taskId);
  const done = useRef(onDone);
  const handled = useRef<string | null>(null);
  useEffect(() => {
    done.current = onDone;
  });
  const finished = taskId !== null && task.data && String(task.data.id) === String(taskId) && !isRunning(task.data) ? task.data : null;
  useEffect(() => {
    if (!finished || handled.current === String(finished.id)) return;
    handled.current = String(finished.id);
    done.current(finished);
  }, [finished]);
  const start = (id: Task['id']) => {
    handled.current = null;
    setTaskId(id);
  };
  return { start, running: taskId !== null && finished === null };
}
