/** POST /api/auth/changePassword: the signed-in user changes their password. */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api, emptyResultSchema, type CallOptions } from '@/lib/api-client';
import { passwordField, repeatPasswordRule, requiredSecret } from '@/lib/validation';

export const changePasswordInputSchema = z
  .object({
    oldPassword: requiredSecret(),
    newPassword: passwordField(),
    repeatPassword: requiredSecret(),
  })
  .superRefine(repeatPasswordRule('newPassword'));
export type ChangePasswordInput = z.infer<typeof changePasswordInputSchema>;

export async function changePassword(input: ChangePasswordInput, { signal }: CallOptions = {}): Promise<void> {
  await api.post('/auth/changePassword', input, emptyResultSchema, { signal });
}

export function useChangePassword() {
  return useMutation({ mutationFn: (input: ChangePasswordInput) => changePassword(input) });
}
