/** Inputs bound to the surrounding `<Form>` by name; they show the field's first failed rule. */
import { Button, PasswordInput, TextInput, type ButtonProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useFormContext, useFormState } from 'react-hook-form';

interface FieldProps {
  name: string;
  label: string;
  autoComplete?: string;
  description?: string;
}

function useField(name: string) {
  const { register, getFieldState } = useFormContext();
  const formState = useFormState({ name });
  return { ...register(name), error: getFieldState(name, formState).error?.message };
}

export function TextField({ name, label, autoComplete, description, type = 'text' }: FieldProps & { type?: 'text' | 'email' }) {
  const field = useField(name);
  return <TextInput {...field} type={type} label={label} autoComplete={autoComplete} description={description} />;
}

export function PasswordField({ name, label, autoComplete = 'current-password' }: FieldProps) {
  const field = useField(name);
  return <PasswordInput {...field} label={label} autoComplete={autoComplete} />;
}

export function SubmitButton({ children, ...props }: ButtonProps & { children: ReactNode }) {
  const { isSubmitting } = useFormState();
  return (
    <Button type="submit" loading={isSubmitting} {...props}>
      {children}
    </Button>
  );
}
