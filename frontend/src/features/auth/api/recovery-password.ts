/** GET /api/auth/recoveryPassword?email=: mails a recovery code (answers 200 for any email). */
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeEmpty } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { emailField } from '@/lib/validation';

export const recoveryPasswordInputSchema = z.object({ email: emailField() });
export type RecoveryPasswordInput = z.infer<typeof recoveryPasswordInputSchema>;

export async function recoveryPassword({ email }: RecoveryPasswordInput, { signal }: CallOptions = {}): Promise<void> {
  await api.get('/auth/recoveryPassword', zEnvelopeEmpty.shape.result, { query: { email }, signal });
}

export function useRecoveryPassword() {
  return useMutation({ mutationFn: (input: RecoveryPasswordInput) => recoveryPassword(input) });
}
