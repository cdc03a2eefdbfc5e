/**
 * The one form pattern: `useZodForm(schema, defaults)` + `<Form form onSubmit>`, with fields
 * bound by `control={form.control}` and a `name` typed as a path of the form's values. Client
 * rules come from the zod schema; a failed submit routes server field errors to their fields,
 * nested ones included (`conditions.0.value`).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormProvider, useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import type { z } from 'zod';
import { FormError } from './FormError';
import { routeServerErrors } from './server-errors';

export function useZodForm<TIn extends FieldValues, TOut extends FieldValues>(
  schema: z.ZodType<TOut, TIn>,
  defaultValues: DefaultValues<TIn>,
) {
  return useForm<TIn, unknown, TOut>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onTouched',
  });
}

interface FormProps<TIn extends FieldValues, TOut extends FieldValues> {
  form: UseFormReturn<TIn, unknown, TOut>;
  onSubmit: (values: TOut) => Promise<unknown>;
  children: ReactNode;
  name: string;
  /** The form's id, for a submit button outside it (`<Button type="submit" form={id}>`). */
  id?: string;
}

export function Form<TIn extends FieldValues, TOut extends FieldValues>({
  form,
  onSubmit,
  children,
  name,
  id,
}: FormProps<TIn, TOut>) {
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      routeServerErrors(error, form);
    }
  });
  return (
    <FormProvider {...form}>
      <form id={id} onSubmit={(event) => void submit(event)} noValidate aria-label={name}>
        <Stack gap="md">
          <FormError />
          {children}
        </Stack>
      </form>
    </FormProvider>
  );
}
