/**
 * POST /api/account/create (multipart: name, clientId, teamId, keyId): connects by key pair.
 * The server proves the credentials with a token exchange signed by the pending key. The same
 * Apple Ads user connected again updates its connection (`added` false, `previousName`).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeCreated } from '@/api/generated/zod.gen';
import { t } from '@/i18n';
import { api, type CallOptions } from '@/lib/api-client';
import { requiredText } from '@/lib/validation';
import { ACCOUNT_NAME_MAX } from './account';
import { accountKeys } from './keys';

export const accountNameField = () => requiredText().max(ACCOUNT_NAME_MAX, t('accounts.nameTooLong'));

export const createAccountInputSchema = z.object({
  name: accountNameField(),
  clientId: requiredText(),
  teamId: requiredText(),
  keyId: requiredText(),
});
export type CreateAccountInput = z.infer<typeof createAccountInputSchema>;

/** The connection, and `added` false when that Apple Ads user was connected already (updated; `previousName` its name before). */
const createdSchema = zEnvelopeCreated.shape.result;
export type Created = z.infer<typeof createdSchema>;

export async function createAccount(input: CreateAccountInput, { signal }: CallOptions = {}): Promise<Created> {
  const body = new FormData();
  for (const [field, value] of Object.entries(input)) body.append(field, value);
  return api.post('/account/create', body, createdSchema, { signal });
}

export function useCreateAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateAccountInput) => createAccount(input),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: accountKeys.publicKey() });
      await queryClient.invalidateQueries({ queryKey: accountKeys.list() });
    },
  });
}
