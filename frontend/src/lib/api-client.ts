/**
 * The one fetch wrapper: sends JSON with the session cookie, unwraps the server envelope
 * `{status, message, result}` and turns every failure into an `ApiError`
 * (docs/product.md#8-generic-mapping). Every call takes an `AbortSignal`: an aborted call rejects
 * with the abort reason (never an `ApiError`), so TanStack Query treats it as cancelled rather than
 * failed. A plan limit reached (`LIMIT_HAS_BEEN_REACHED`) is also reported to `lib/limit-events`
 * before it throws. Every request carries `X-Searchdeck-Client: web`: the server refuses its
 * state-changing GETs (switching account, refreshing an account, starting a trial, stopping a
 * collection, the oauth calls, password recovery, sign-out) without it, so another site's link or
 * image cannot trigger them with the user's cookie.
 */
import { z } from 'zod';
import { ApiError, defaultMessage, isLimitError, type ErrorMeta, type FieldError } from './api-error';
import { reportLimitReached } from './limit-events';

export const API_PREFIX = '/api';

/** The header the server requires on state-changing GETs (a cross-site request cannot set it). */
export const CLIENT_HEADER = { name: 'X-Searchdeck-Client', value: 'web' } as const;

export type Query = Record<string, string | number | boolean | undefined>;

/** What every endpoint function takes last: query hooks pass TanStack Query's `signal`. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export interface RequestOptions<S extends z.ZodType> extends CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query | undefined;
  /** JSON, or a `FormData` sent as `multipart/form-data` (the browser sets the boundary). */
  body?: unknown;
  /** Schema of `result`; the call fails with 502 when the result does not match it. */
  schema: S;
  /** Extra request headers (e.g. `If-Match`). */
  headers?: Record<string, string> | undefined;
}

const fieldErrorSchema = z.object({ field: z.string().catch(''), message: z.string() });

const envelopeSchema = z.object({
  status: z.number().optional(),
  message: z.string().optional(),
  result: z.unknown().optional(),
  errors: z.array(fieldErrorSchema).optional().catch([]),
  meta: z.record(z.string(), z.unknown()).optional().catch({}),
});

type Envelope = z.infer<typeof envelopeSchema>;

function buildUrl(path: string, query?: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_PREFIX}${path}${search ? `?${search}` : ''}`;
}

async function readEnvelope(response: Response, signal: AbortSignal | undefined): Promise<Envelope | null> {
  const text = await response.text().catch((error: unknown) => {
    if (signal?.aborted) throw error;
    return '';
  });
  if (!text) return null;
  try {
    const parsed = envelopeSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Error precedence: the server's message, then the first of its errors, then the default. */
export function toApiError(status: number, envelope: Envelope): ApiError {
  const errors: FieldError[] = envelope.errors ?? [];
  const message = envelope.message || errors[0]?.message || defaultMessage(status);
  const meta: ErrorMeta = envelope.meta ?? {};
  return new ApiError(status, message, errors, meta);
}

/** A response without data is treated as status 502. */
const noData = () => new ApiError(502, defaultMessage(502));

export async function apiRequest<S extends z.ZodType>(
  path: string,
  { method = 'GET', query, body, schema, signal, headers }: RequestOptions<S>,
): Promise<z.infer<S>> {
  let response: Response;
  const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      credentials: 'include',
      headers: {
        Accept: 'application/json',
        ...(body === undefined || multipart ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
        [CLIENT_HEADER.name]: CLIENT_HEADER.value,
      },
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw noData();
  }
  const envelope = await readEnvelope(response, signal);
  if (!envelope) throw noData();
  const status = response.ok ? (envelope.status ?? response.status) : response.status;
  if (status >= 400) {
    const error = toApiError(status, envelope);
    // docs/product.md#8-limit-reached: a plan limit reached by any call opens the limit modal
    // (lib/limit-events).
    if (isLimitError(error)) reportLimitReached(path, error.meta.type, error);
    throw error;
  }
  const result = schema.safeParse(envelope.result ?? {});
  if (!result.success) {
    throw new ApiError(502, defaultMessage(502), [], { issues: result.error.issues });
  }
  return result.data;
}

/** The result of calls that return nothing of interest. */
export const emptyResultSchema = z.unknown();

/** A GET's options: the query string beside the signal. */
export interface GetOptions extends CallOptions {
  query?: Query | undefined;
}

/** A write's options: extra headers beside the signal. */
export interface WriteOptions extends CallOptions {
  headers?: Record<string, string> | undefined;
}

export const api = {
  get: <S extends z.ZodType>(path: string, schema: S, { query, signal }: GetOptions = {}) =>
    apiRequest(path, { schema, query, signal }),
  post: <S extends z.ZodType>(path: string, body: unknown, schema: S, { signal }: CallOptions = {}) =>
    apiRequest(path, { method: 'POST', body, schema, signal }),
  put: <S extends z.ZodType>(path: string, body: unknown, schema: S, { signal, headers }: WriteOptions = {}) =>
    apiRequest(path, { method: 'PUT', body, schema, signal, headers }),
  patch: <S extends z.ZodType>(path: string, body: unknown, schema: S, { signal }: CallOptions = {}) =>
    apiRequest(path, { method: 'PATCH', body, schema, signal }),
  delete: <S extends z.ZodType>(path: string, schema: S, { signal }: CallOptions = {}) =>
    apiRequest(path, { method: 'DELETE', schema, signal }),
};
