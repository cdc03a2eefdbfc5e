/**
 * Routes an API failure into a react-hook-form: each envelope field error (`email`,
 * `conditions.0.value`, or `conditions[0].value`) to the field at that path of the form's
 * values, and whatever no field can show to the form's root error.
 */
import { get, type FieldValues, type Path, type UseFormGetValues, type UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '@/lib/api-error';

export const ROOT_SERVER_ERROR = 'root.server' as const;

/** The react-hook-form path of a server field name: `rules[0].value` → `rules.0.value`. */
export function toFieldPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1').replace(/^\./, '');
}

/** Whether `path` names a value of the form (a field, a list item or a nested object). */
export function isFormPath<T extends FieldValues>(values: T, path: string): path is Path<T> {
  return path !== '' && get(values, path) !== undefined;
}

export interface ServerErrorTarget<T extends FieldValues> {
  setError: UseFormSetError<T>;
  getValues: UseFormGetValues<T>;
}

export function routeServerErrors<T extends FieldValues>(error: unknown, form: ServerErrorTarget<T>): void {
  const fieldErrors = error instanceof ApiError ? error.errors : [];
  const values = form.getValues();
  const unrouted: string[] = [];
  let routed = 0;
  for (const { field, message } of fieldErrors) {
    const path = toFieldPath(field);
    if (isFormPath(values, path)) {
      form.setError(path, { type: 'server', message }, { shouldFocus: routed === 0 });
      routed += 1;
    } else {
      unrouted.push(message);
    }
  }
  if (routed === 0) {
    form.setError(ROOT_SERVER_ERROR, { type: 'server', message: errorMessage(error) });
  } else if (unrouted.length > 0) {
    form.setError(ROOT_SERVER_ERROR, { type: 'server', message: unrouted.join(' ') });
  }
}
