/** POST /api/auth/changePasswordByCode: sets a new password with a recovery code. */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api, emptyResultSchema, type CallOptions } from '@/lib/api-client';
import { passwordField, repeatPasswordRule, requiredSecret } from '@/lib/validation';
import { checkCode, recoveryCodeField } from './check-code';

export const changePasswordByCodeInputSchema = z
  .object({
    code: recoveryCodeField(),
    newPassword: passwordField(),
    repeatPassword: requiredSecret(),
  })
  .superRefine(repeatPasswordRule('newPassword'));
export type ChangePasswordByCodeInput = z.infer<typeof changePasswordByCodeInputSchema>;

/** Checks the code first so an unusable code is reported before the password is sent. */
export async function changePasswordByCode(
  input: ChangePasswordByCodeInput,
  { signal }: CallOptions = {},
): Promise<void> {
  await checkCode(input.code, { signal });
  await api.post('/auth/changePasswordByCode', input, emptyResultSchema, { signal });
}

export function useChangePasswordByCode() {
  return useMutation({ mutationFn: (input: ChangePasswordByCodeInput) => changePasswordByCode(input) });
}
