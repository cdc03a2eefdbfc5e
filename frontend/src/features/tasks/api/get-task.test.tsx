import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createQueryClient } from '@/lib/query-client';
import { makeTask } from '@/test/fixtures';
import { callsTo, mockApi, never, ok } from '@/test/fetch-mock';
import { useTask } from './get-task';
import { taskTiming } from './task';

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={createQueryClient()}>{children}</QueryClientProvider>;
}

describe('useTask', () => {
  // Polls every 50 ms instead of the app's 1000 ms: the test waits on the task, not the clock.
  beforeAll(() => {
    taskTiming.pollMs = 50;
  });

  it('polls GET /api/tasks/{id} until the task finishes', async () => {
    mockApi('GET /api/tasks/t-1', ok({ item: makeTask({ id: 't-1' }) }), ok({ item: makeTask({ id: 't-1', finish: true }) }));
    const { result } = renderHook(() => useTask('t-1'), { wrapper });
    await waitFor(() => expect(result.current.data?.finish).toBe(true));
    expect(callsTo('GET /api/tasks/t-1')).toHaveLength(2);
  });

  it('asks nothing without an id', () => {
    renderHook(() => useTask(null), { wrapper });
    expect(callsTo('GET /api/tasks/')).toHaveLength(0);
  });

  it('cancels the call of a superseded id', async () => {
    mockApi('GET /api/tasks/t-1', never);
    mockApi('GET /api/tasks/t-2', ok({ item: makeTask({ id: 't-2', finish: true }) }));
    const { result, rerender } = renderHook(({ id }) => useTask(id), { wrapper, initialProps: { id: 't-1' } });
    await waitFor(() => expect(callsTo('GET /api/tasks/t-1')).toHaveLength(1));
    const superseded = callsTo('GET /api/tasks/t-1')[0]!.signal!;
    expect(superseded.aborted).toBe(false);

    rerender({ id: 't-2' });
    await waitFor(() => expect(result.current.data?.id).toBe('t-2'));
    expect(superseded.aborted).toBe(true);
    expect(callsTo('GET /api/tasks/t-2')[0]?.signal?.aborted).toBe(false);
  });
});
