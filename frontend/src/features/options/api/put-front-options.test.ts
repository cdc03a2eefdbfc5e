import { callsTo, mockApi, ok } from '@/test/fetch-mock';
import { enqueue, putFrontOptions } from './put-front-options';

describe('PUT /api/options/front queue', () => {
  it('sends one PUT at a time, in order', async () => {
    const log: string[] = [];
    let release: () => void = () => {};
    const first = enqueue(() => new Promise<void>((resolve) => {
      log.push('first started');
      release = () => { log.push('first done'); resolve(); };
    }));
    const second = enqueue(() => { log.push('second started'); return Promise.resolve(); });
    await Promise.resolve();
    expect(log).toEqual(['first started']);
    release();
    await Promise.all([first, second]);
    expect(log).toEqual(['first started', 'first done', 'second started']);
  });

  it('goes on after a failed save', async () => {
    const failed = enqueue(() => Promise.reject(new Error('nope')));
    const next = enqueue(() => Promise.resolve('ran'));
    await expect(failed).rejects.toThrow('nope');
    await expect(next).resolves.toBe('ran');
  });

  it('puts the option keys and returns the saved options', async () => {
    mockApi('PUT /api/options/front', ok({ item: { 'suggester-entry': { step: 2 } } }));
    await expect(putFrontOptions({ 'suggester-entry': { step: 2 } })).resolves.toEqual({ 'suggester-entry': { step: 2 } });
    expect(callsTo('PUT /api/options/front')[0]?.body).toEqual({ 'suggester-entry': { step: 2 } });
  });
});
