/**
 * Network mocked at the fetch layer: register answers per "METHOD /api/path", read the
 * calls back. Unregistered calls answer 404 so a forgotten mock fails loudly.
 */

export interface MockCall {
  method: string;
  url: string;
  body: unknown;
  /** The request's headers as sent. */
  headers: Record<string, string>;
  /** The signal the client passed; a call whose signal aborts rejects like the browser's. */
  signal: AbortSignal | undefined;
}

type Answer = { status?: number; body?: unknown; raw?: string };
type Responder = Answer | ((call: MockCall) => Answer | Promise<Answer>);

const routes = new Map<string, Responder[]>();
export const calls: MockCall[] = [];

function keyOf(method: string, url: string) {
  return `${method} ${url.split('?')[0]}`;
}

/** Answer the next call (or every call, when it is the last answer left) to `route`. */
export function mockApi(route: string, ...answers: Responder[]) {
  routes.set(route, [...(routes.get(route) ?? []), ...answers]);
}

/** Answer `route` like this unless the test registered answers of its own. */
export function mockApiDefault(route: string, answer: Responder) {
  if (!routes.has(route)) routes.set(route, [answer]);
}

export const ok = (result: unknown = {}): Answer => ({
  body: { status: 200, message: 'Request success', result },
});

export const fail = (
  status: number,
  message: string,
  errors: { field: string; message: string }[] = [],
  meta: Record<string, unknown> = {},
): Answer => ({ status, body: { status, message, errors, meta } });

/** JSON bodies parsed; a multipart `FormData` as an object of its text fields. */
function readBody(body: RequestInit['body']): unknown {
  if (typeof body === 'string') return JSON.parse(body) as unknown;
  if (body instanceof FormData) return Object.fromEntries(body.entries());
  return undefined;
}

async function fakeFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  const method = init.method ?? 'GET';
  const call: MockCall = {
    method,
    url,
    body: readBody(init.body),
    headers: { ...(init.headers as Record<string, string> | undefined) },
    signal: init.signal ?? undefined,
  };
  calls.push(call);
  const queue = routes.get(keyOf(method, url));
  const responder = queue && (queue.length > 1 ? queue.shift() : queue[0]);
  const answer = await untilAborted(call.signal, typeof responder === 'function' ? responder(call) : responder);
  if (!answer) return response(404, JSON.stringify({ status: 404, message: 'Not found' }));
  const text = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  return response(answer.status ?? 200, text);
}

/** Settles with `answer`, or rejects with the abort reason once `signal` aborts first. */
function untilAborted<T>(signal: AbortSignal | undefined, answer: T | Promise<T>): Promise<T> {
  if (!signal) return Promise.resolve(answer);
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    Promise.resolve(answer).then(resolve, reject);
  });
}

/**
 * An answer held back until `release()`: what the screen shows before it stays there until
 * the test has looked, however short the polling interval and however busy the machine.
 */
export function held(answer: Responder): { answer: (call: MockCall) => Promise<Answer>; release: () => void } {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { answer: (call) => gate.then(() => (typeof answer === 'function' ? answer(call) : answer)), release };
}

/** An answer that never comes, for calls that a test expects to be cancelled. */
export const never = (): Promise<Answer> => new Promise<Answer>(() => {});

/** The part of Response the API client reads (jsdom has no fetch API of its own). */
function response(status: number, text: string): Response {
  return { ok: status >= 200 && status < 300, status, text: () => Promise.resolve(text) } as Response;
}

export function installFetchMock() {
  globalThis.fetch = jest.fn(fakeFetch);
}

export function resetFetchMock() {
  routes.clear();
  calls.length = 0;
  installFetchMock();
}

export function callsTo(route: string): MockCall[] {
  return calls.filter((c) => keyOf(c.method, c.url) === route);
}

installFetchMock();
