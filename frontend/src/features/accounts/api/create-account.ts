/**
 * POST /api/account/create (multipart: name, clientId, teamId, keyId): connects by key pair.
 * The server proves the credentials with a token exchange signed by the pending key.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { t } from '@/i18n';
import { api, type CallOptions } from '@/lib/api-client';
import { requiredText } from '@/lib/validation';
import { ACCOUNT_NAME_MAX, accountResultSchema, type Account } from './account';
import { accountKeys } from './keys';

export const accountNameField = () => requiredText().max(ACCOUNT_NAME_MAX, t('accounts.nameTooLong'));

export const createAccountInputSchema = z.object({
  name: accountNameField(),
  clientId: requiredText(),
  teamId: requiredText(),
  keyId: requiredText(),
});
export type CreateAccountInput = z.infer<typeof createAccountInputSchema>;

export async function createAccount(input: CreateAccountInput, { signal }: CallOptions = {}): Promise<Account> {
  const body = new FormData();
  for (const [field, value] of Object.entries(input)) body.append(field, value);
  const { item } = await api.post('/account/create', body, accountResultSchema, { signal });
  return item;
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
