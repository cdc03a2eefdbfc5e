/**
 * Plan limits reached anywhere (docs/product.md#8-limit-reached): the API client reports every
 * `LIMIT_HAS_BEEN_REACHED` answer here, and the limit modal of the layout listens. Answers of
 * condition-check calls (paths whose last segment starts with `check`, e.g.
 * `account/checkAppsLimit`) are not reported: their callers decide what to show.
 */
import type { ApiError } from './api-error';

export type LimitListener = (type: string, error: ApiError) => void;

const listeners = new Set<LimitListener>();

/** Calls `listener` on every limit reached from now; answers the unsubscribe function. */
export function onLimitReached(listener: LimitListener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Whether `path` (without the /api prefix or query) is a condition-check call. */
export function isConditionCheck(path: string): boolean {
  const last = path.split('?')[0]?.split('/').filter(Boolean).pop() ?? '';
  return /^check[A-Z]/.test(last);
}

/** Tells every listener that the call to `path` reached the limit `type`. */
export function reportLimitReached(path: string, type: string, error: ApiError) {
  if (isConditionCheck(path)) return;
  for (const listener of listeners) listener(type, error);
}
