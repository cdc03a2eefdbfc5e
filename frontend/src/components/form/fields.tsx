/**
 * Inputs bound to a form by `control` and a `name` that must be a path of the form's values
 * (`email`, `conditions.0.value`): a misspelt or stale name does not compile. Each shows the
 * message of its field's first failed rule or its server error.
 */
import { Button, PasswordInput, TextInput, type ButtonProps, type TextInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useController, useFormState, type Control, type FieldValues, type Path } from 'react-hook-form';

export interface FieldProps<T extends FieldValues, TOut extends FieldValues = T> {
  control: Control<T, unknown, TOut>;
  name: Path<T>;
  label: string;
  autoComplete?: string;
  description?: string;
}

function useTextField<T extends FieldValues, TOut extends FieldValues>(control: Control<T, unknown, TOut>, name: Path<T>) {
  const { field, fieldState } = useController({ control, name });
  const value: unknown = field.value;
  return {
    name: field.name,
    ref: field.ref,
    onBlur: field.onBlur,
    onChange: field.onChange,
    disabled: field.disabled,
    value: typeof value === 'string' || typeof value === 'number' ? value : '',
    error: fieldState.error?.message,
  };
}

export function TextField<T extends FieldValues, TOut extends FieldValues = T>({
  control,
  name,
  type = 'text',
  ...props
}: FieldProps<T, TOut> & { type?: 'text' | 'email' } & Pick<
    TextInputProps,
    'maxLength' | 'withAsterisk' | 'rightSection' | 'rightSectionWidth' | 'leftSection' | 'inputMode'
  >) {
  const field = useTextField(control, name);
  return <TextInput {...field} {...props} type={type} />;
}

export function PasswordField<T extends FieldValues, TOut extends FieldValues = T>({
  control,
  name,
  autoComplete = 'current-password',
  ...props
}: FieldProps<T, TOut>) {
  const field = useTextField(control, name);
  return <PasswordInput {...field} {...props} autoComplete={autoComplete} />;
}

export function SubmitButton({ children, ...props }: ButtonProps & { children: ReactNode }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" loading={isSubmitting} {...props}>
      {children}
    </Button>
  );
}
