/** Routes an API failure into a react-hook-form: field errors to their fields, the rest to root. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from '@/lib/api-error';

export const ROOT_SERVER_ERROR = 'root.server' as const;

export function routeServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldNames: readonly string[],
) {
  const fieldErrors =
    error instanceof ApiError ? error.errors.filter((e) => fieldNames.includes(e.field)) : [];
  for (const { field, message } of fieldErrors) {
    setError(field as Path<T>, { type: 'server', message }, { shouldFocus: true });
  }
  if (fieldErrors.length === 0) {
    setError(ROOT_SERVER_ERROR, { type: 'server', message: errorMessage(error) });
  }
}
