import { z } from 'zod';
import { callsTo, fail, mockApi, mockUndocumented, never, ok } from '@/test/fetch-mock';
import { api, apiRequest } from './api-client';
import { ApiError, isLimitError } from './api-error';

const itemSchema = z.object({ item: z.object({ id: z.number() }) });

async function caught(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('apiRequest', () => {
  it('unwraps the result of the envelope and validates it', async () => {
    mockUndocumented('GET /api/things', ok({ item: { id: 7 } }));
    await expect(api.get('/things', itemSchema)).resolves.toEqual({ item: { id: 7 } });
  });

  it('sends JSON with the session cookie and the query string', async () => {
    mockUndocumented('POST /api/things', ok({ item: { id: 1 } }));
    const fetchMock = globalThis.fetch as jest.Mock;
    await apiRequest('/things', { method: 'POST', body: { a: 1 }, query: { q: 'x y', skip: undefined }, schema: itemSchema });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/things?q=x+y');
    expect(init.credentials).toBe('include');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json' });
    expect(callsTo('POST /api/things')[0]?.body).toEqual({ a: 1 });
  });

  it("prefers the server's message", async () => {
    mockApi('POST /api/auth/login', fail(401, 'Login or password doesnt match', [{ field: 'email', message: 'other' }]));
    const error = await caught(api.post('/auth/login', {}, itemSchema));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Login or password doesnt match');
    expect(error.errors).toEqual([{ field: 'email', message: 'other' }]);
  });

  it('falls back to the first of the errors list', async () => {
    mockUndocumented('POST /api/x', fail(400, '', [{ field: 'password', message: 'Too short' }, { field: 'email', message: 'Bad' }]));
    expect((await caught(api.post('/x', {}, itemSchema))).message).toBe('Too short');
  });

  it.each([
    [500, 'Error. Try again later'],
    [404, 'Bad Gateway'],
    [403, 'Bad Gateway'],
  ])('defaults the message of status %i', async (status, message) => {
    mockUndocumented('GET /api/x', { status, body: { status } });
    const error = await caught(api.get('/x', itemSchema));
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it.each([
    ['an empty body', { status: 200, raw: '' }],
    ['a body that is not JSON', { status: 500, raw: '<html>oops</html>' }],
    ['a JSON body that is not an envelope', { status: 200, raw: '[1,2]' }],
  ])('treats %s as 502', async (_, answer) => {
    mockUndocumented('GET /api/x', answer);
    const error = await caught(api.get('/x', itemSchema));
    expect(error.status).toBe(502);
    expect(error.message).toBe('Bad Gateway');
  });

  it('treats a network failure as 502', async () => {
    globalThis.fetch = jest.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    expect((await caught(api.get('/x', itemSchema))).status).toBe(502);
  });

  it('treats a result that does not match its schema as 502', async () => {
    mockUndocumented('GET /api/x', ok({ item: { id: 'seven' } }));
    expect((await caught(api.get('/x', itemSchema))).status).toBe(502);
  });

  it('keeps meta and recognises limit errors', async () => {
    mockApi('PUT /api/rules/user', fail(403, 'LIMIT_HAS_BEEN_REACHED', [], { type: 'AVAILABLERULES' }));
    const error = await caught(api.put('/rules/user', {}, itemSchema));
    expect(error.meta).toEqual({ type: 'AVAILABLERULES' });
    expect(isLimitError(error)).toBe(true);
    expect(isLimitError(new ApiError(403, 'LIMIT_HAS_BEEN_REACHED'))).toBe(false);
    expect(isLimitError(new ApiError(400, 'Other', [], { type: 'AVAILABLERULES' }))).toBe(false);
  });

  it.each([
    ['get', () => api.get('/things', itemSchema, { signal: new AbortController().signal })],
    ['post', () => api.post('/things', {}, itemSchema, { signal: new AbortController().signal })],
    ['put', () => api.put('/things', {}, itemSchema, { signal: new AbortController().signal })],
  ])('%s passes its signal to fetch', async (method, call) => {
    mockUndocumented(`${method.toUpperCase()} /api/things`, ok({ item: { id: 1 } }));
    await call();
    expect(callsTo(`${method.toUpperCase()} /api/things`)[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('rejects an aborted call with the abort reason, not an ApiError', async () => {
    mockUndocumented('GET /api/slow', never);
    const controller = new AbortController();
    const pending = api.get('/slow', itemSchema, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(pending).rejects.not.toBeInstanceOf(ApiError);
  });

  it('rejects an aborted body read with the abort reason', async () => {
    const controller = new AbortController();
    globalThis.fetch = jest.fn().mockResolvedValue({
      ok: true,
      status: 200,
      text: () => {
        controller.abort();
        return Promise.reject(controller.signal.reason as Error);
      },
    });
    await expect(api.get('/x', itemSchema, { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });
});
