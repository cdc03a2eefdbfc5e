/** The form-level error of a failed submit (a server message with no field of its own). */
import { Alert } from '@mantine/core';
import { useFormState } from 'react-hook-form';

export function FormError() {
  const { errors } = useFormState();
  const message = errors.root?.server?.message;
  if (!message) return null;
  return (
    <Alert color="red" role="alert" variant="light">
      {message}
    </Alert>
  );
}
