/** The one error type every API call throws, and the helpers that read it. */

export interface FieldError {
  field: string;
  message: string;
}

export type ErrorMeta = Record<string, unknown>;

/**
 * docs/product.md#8-generic-mapping: the default message of a status the server gave no message
 * for.
 */
export function defaultMessage(status: number): string {
  if (status === 200) return 'Request success';
  if (status === 500) return 'Error. Try again later';
  return 'Bad Gateway';
}

export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldError[];
  readonly meta: ErrorMeta;

  constructor(status: number, message: string, errors: FieldError[] = [], meta: ErrorMeta = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.meta = meta;
  }
}

export const LIMIT_HAS_BEEN_REACHED = 'LIMIT_HAS_BEEN_REACHED';

/** A plan limit error: message LIMIT_HAS_BEEN_REACHED with the limit kind in meta.type. */
export function isLimitError(error: unknown): error is ApiError & { meta: { type: string } } {
  return (
    error instanceof ApiError &&
    error.message === LIMIT_HAS_BEEN_REACHED &&
    typeof error.meta.type === 'string'
  );
}

/** The text to show the user for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return defaultMessage(502);
}
