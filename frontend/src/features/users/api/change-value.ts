/** POST /api/users/changeValue {alternativeInvoiceEmail}: updates the user; the session follows. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { authKeys, userResultSchema, type User } from '@/features/auth';
import { t } from '@/i18n';
import { api, type CallOptions } from '@/lib/api-client';

/** Empty means "no alternative address" and is sent as null. */
export const changeValueInputSchema = z.object({
  alternativeInvoiceEmail: z
    .string()
    .trim()
    .refine((v) => v === '' || z.email().safeParse(v).success, t('common.invalidEmail'))
    .transform((v) => (v === '' ? null : v)),
});
export type ChangeValueInput = z.output<typeof changeValueInputSchema>;

export async function changeValue(input: ChangeValueInput, { signal }: CallOptions = {}): Promise<User> {
  const { item } = await api.post('/users/changeValue', input, userResultSchema, { signal });
  return item;
}

export function useChangeValue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ChangeValueInput) => changeValue(input),
    onSuccess: (user) => queryClient.setQueryData(authKeys.session(), user),
  });
}
