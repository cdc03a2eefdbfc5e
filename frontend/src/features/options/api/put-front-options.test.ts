import { createQueryClient } from '@/lib/query-client';
import { callsTo, fail, mockApi, ok } from '@/test/fetch-mock';
import { enqueue, putFrontOptions, updateFrontOption } from './put-front-options';

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

  it('puts the option keys and returns the saved options with their version', async () => {
    mockApi('PUT /api/options/front', ok({ item: { 'suggester-entry': { step: 2 } }, version: 4 }));
    await expect(putFrontOptions({ 'suggester-entry': { step: 2 } })).resolves.toEqual({ item: { 'suggester-entry': { step: 2 } }, version: 4 });
    const call = callsTo('PUT /api/options/front')[0]!;
    expect(call.body).toEqual({ 'suggester-entry': { step: 2 } });
    expect(call.headers['If-Match']).toBeUndefined();
  });
});

describe('saving one option from its current value', () => {
  it('names the version it read in If-Match', async () => {
    mockApi('GET /api/options/front', ok({ item: { presets: ['a'] }, version: 7 }));
    mockApi('PUT /api/options/front', ok({ item: { presets: ['a', 'b'] }, version: 8 }));
    const client = createQueryClient();
    const saved = await updateFrontOption(client, 'presets', (current) => [...(current as string[]), 'b']);
    expect(saved).toEqual({ item: { presets: ['a', 'b'] }, version: 8 });
    const put = callsTo('PUT /api/options/front')[0]!;
    expect(put.headers['If-Match']).toBe('"7"');
    expect(put.body).toEqual({ presets: ['a', 'b'] });
  });

  it('reads again after a conflict and applies the change to the fresh value', async () => {
    mockApi('GET /api/options/front', ok({ item: { presets: ['a'] }, version: 7 }), ok({ item: { presets: ['a', 'other tab'] }, version: 9 }));
    mockApi(
      'PUT /api/options/front',
      fail(412, 'These options were changed in another window. Reload them and save again', [], { version: 9 }),
      ok({ item: { presets: ['a', 'other tab', 'b'] }, version: 10 }),
    );
    const client = createQueryClient();
    await updateFrontOption(client, 'presets', (current) => [...(current as string[]), 'b']);
    const puts = callsTo('PUT /api/options/front');
    expect(puts).toHaveLength(2);
    expect(puts[1]!.headers['If-Match']).toBe('"9"');
    expect(puts[1]!.body).toEqual({ presets: ['a', 'other tab', 'b'] });
  });

  it('gives up after repeated conflicts with the server message', async () => {
    mockApi('GET /api/options/front', ok({ item: {}, version: 1 }));
    mockApi('PUT /api/options/front', fail(412, 'These options were changed in another window. Reload them and save again'));
    await expect(updateFrontOption(createQueryClient(), 'k', () => 1)).rejects.toThrow('changed in another window');
    expect(callsTo('PUT /api/options/front')).toHaveLength(3);
  });
});
