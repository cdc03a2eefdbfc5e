/**
 * Network mocked at the fetch layer: register answers per "METHOD /api/path", read the
 * calls back. Unregistered calls answer 404 so a forgotten mock fails loudly.
 *
 * Every answer given is checked against the server's OpenAPI document (`src/api/contract.ts`):
 * a route the document does not have, a status its operation does not list or a body off
 * the operation's schema (a missing member, a wrong type, a member the server never sends)
 * fails the test, so a mock cannot hold a shape the server never sends. Only the API
 * client's own tests answer made-up routes, through `mockUndocumented`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiContract } from '@/api/contract';

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
/** Routes whose answers are not checked against the document (made-up routes). */
const undocumented = new Set<string>();
/** Answers the document does not describe, reported by `takeContractProblems`. */
const contractProblems: string[] = [];

const contract = openApiContract(JSON.parse(readFileSync(join(__dirname, '../api/openapi.json'), 'utf8')));

function keyOf(method: string, url: string) {
  return `${method} ${url.split('?')[0]}`;
}

/** Answer the next call (or every call, when it is the last answer left) to `route`. */
export function mockApi(route: string, ...answers: Responder[]) {
  routes.set(route, [...(routes.get(route) ?? []), ...answers]);
}

/** `mockApi` for a route the document does not have (the API client's own tests). */
export function mockUndocumented(route: string, ...answers: Responder[]) {
  undocumented.add(route);
  mockApi(route, ...answers);
}

/** The answers given since the last call that the document does not describe. */
export function takeContractProblems(): string[] {
  return contractProblems.splice(0);
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
  const checked = answer.raw === undefined ? { body: answer.body } : jsonOf(answer.raw);
  if (checked && !undocumented.has(keyOf(method, url))) {
    const problem = contract.contractProblem(method, url, answer.status ?? 200, checked.body);
    if (problem) {
      contractProblems.push(problem);
      throw new Error(`The mock's answer is not what the server sends: ${problem}`);
    }
  }
  const text = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  return response(answer.status ?? 200, text);
}

/** A raw answer's JSON body, when it is JSON (a raw text that is not is not checked). */
function jsonOf(raw: string): { body: unknown } | null {
  try {
    return { body: JSON.parse(raw) as unknown };
  } catch {
    return null;
  }
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
  undocumented.clear();
  calls.length = 0;
  installFetchMock();
}

export function callsTo(route: string): MockCall[] {
  return calls.filter((c) => keyOf(c.method, c.url) === route);
}

installFetchMock();
