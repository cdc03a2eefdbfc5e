import { makeTask } from '@/test/fixtures';
import { progressTone, taskProgress } from './progress';

describe('task progress (spec §4)', () => {
  it.each([
    [{ step: 0, totalSteps: 4 }, 0],
    [{ step: 1, totalSteps: 4 }, 20],
    [{ step: 1, totalSteps: 2 }, 33],
    [{ step: 2, totalSteps: 2 }, 67],
    [{ step: 3, totalSteps: 3 }, 75],
    [{ step: 2, totalSteps: 5, finish: true }, 100],
    [{ step: 0, totalSteps: 5, error: 'Provider unavailable' }, 100],
  ])('%o → %i', (fields, expected) => {
    expect(taskProgress(makeTask(fields))).toBe(expected);
  });

  it('is primary while running, success at 100, danger on error', () => {
    expect(progressTone(makeTask({ step: 1 }))).toBe('primary');
    expect(progressTone(makeTask({ finish: true }))).toBe('success');
    expect(progressTone(makeTask({ error: 'boom' }))).toBe('danger');
  });
});
