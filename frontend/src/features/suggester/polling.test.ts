import { ApiError } from '@/lib/api-error';
import { makeTask } from '@/test/fixtures';
import type { PollResult } from './api/types';
import { COLLECTION_FAILED, isNetworkError, pollUntilDone } from './polling';

const running = (step: number): PollResult => ({ task: makeTask({ id: 't1', message: 'Exploring your app...', step, totalSteps: 7 }), items: null });
const finished: PollResult = {
  task: makeTask({ id: 't1', message: 'Keywords collecting completed!', step: 7, totalSteps: 7, finish: true }),
  items: [{ name: 'photo editor', popularity: 57, applePopularity: 3, impressions: 0, sources: [], required: false, bidOn: [], negatedIn: [] }],
};

/** A poll answering (or throwing) each of `answers` in turn. */
function scripted(answers: (PollResult | Error)[]) {
  const poll = jest.fn((_signal: AbortSignal) => {
    const next = answers.shift();
    if (!next) throw new Error('polled after the end');
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
  });
  return poll;
}

const noWait = jest.fn(() => Promise.resolve());

describe('polling a collection (spec §4)', () => {
  beforeEach(() => noWait.mockClear());

  it('polls every interval until the task finishes, reporting each task', async () => {
    const poll = scripted([running(1), running(3), finished]);
    const onTask = jest.fn();
    const outcome = await pollUntilDone({ poll, signal: new AbortController().signal, onTask, sleep: noWait });
    expect(outcome).toMatchObject({ kind: 'done', items: [{ name: 'photo editor' }] });
    expect(poll).toHaveBeenCalledTimes(3);
    expect(noWait).toHaveBeenCalledTimes(3);
    expect(noWait).toHaveBeenCalledWith(1000, expect.anything());
    expect(onTask.mock.calls.map(([task]: [{ step: number }]) => task.step)).toEqual([1, 3, 7]);
  });

  it('polls at once when resuming', async () => {
    const poll = scripted([finished]);
    await pollUntilDone({ poll, signal: new AbortController().signal, immediate: true, sleep: noWait });
    expect(noWait).not.toHaveBeenCalled();
  });

  it('ignores METHOD_IS_EXECUTED and skips network errors', async () => {
    const poll = scripted([new ApiError(409, 'METHOD_IS_EXECUTED'), new ApiError(502, 'Bad Gateway'), running(2), finished]);
    const outcome = await pollUntilDone({ poll, signal: new AbortController().signal, sleep: noWait });
    expect(outcome.kind).toBe('done');
    expect(poll).toHaveBeenCalledTimes(4);
  });

  it("stops on any other error with 'Something went wrong'", async () => {
    const poll = scripted([running(1), new ApiError(500, 'Error. Try again later'), finished]);
    const outcome = await pollUntilDone({ poll, signal: new AbortController().signal, sleep: noWait });
    expect(outcome).toEqual({ kind: 'failed', error: COLLECTION_FAILED, task: null });
    expect(poll).toHaveBeenCalledTimes(2);
  });

  it('stops when the task failed', async () => {
    const failed: PollResult = { task: makeTask({ id: 't1', message: 'Something went wrong', error: 'Apple Ads refused' }), items: null };
    const outcome = await pollUntilDone({ poll: scripted([failed]), signal: new AbortController().signal, sleep: noWait });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'Something went wrong' });
  });

  it('ends as stopped when the user stopped the task', async () => {
    const stopped: PollResult = { task: makeTask({ id: 't1', error: 'Stopped', details: { stopped: true } }), items: null };
    const outcome = await pollUntilDone({ poll: scripted([stopped]), signal: new AbortController().signal, sleep: noWait });
    expect(outcome.kind).toBe('stopped');
  });

  it('rejects when aborted, polling no more', async () => {
    const controller = new AbortController();
    const poll = scripted([running(1), running(2)]);
    const pending = pollUntilDone({ poll, signal: controller.signal, onTask: () => controller.abort(new Error('left')), sleep: noWait });
    await expect(pending).rejects.toThrow('left');
    expect(poll).toHaveBeenCalledTimes(1);
  });

  it("tells a network error from a server's 502", () => {
    expect(isNetworkError(new ApiError(502, 'Bad Gateway'))).toBe(true);
    expect(isNetworkError(new ApiError(502, 'Apple Ads could not be reached'))).toBe(false);
    expect(isNetworkError(new ApiError(502, 'Bad Gateway', [], { issues: [] }))).toBe(false);
  });
});
