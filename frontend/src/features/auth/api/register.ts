/** POST /api/auth/register: creates the account and signs the new user in. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { emailField, passwordField, repeatPasswordRule, requiredText, requiredSecret } from '@/lib/validation';
import { authKeys } from './keys';
import { setSessionHint } from './session-hint';
import { userResultSchema, type User } from './user';

export const registerInputSchema = z
  .object({
    fullName: requiredText(),
    email: emailField(),
    password: passwordField(),
    repeatPassword: requiredSecret(),
  })
  .superRefine(repeatPasswordRule('password'));
export type RegisterInput = z.infer<typeof registerInputSchema>;

/** Where the sign-up came from; this app only signs up on the web. */
export const REGISTER_SOURCE = 'web';

export async function register(input: RegisterInput, { signal }: CallOptions = {}): Promise<User> {
  const body = { ...input, source: REGISTER_SOURCE };
  const { item } = await api.post('/auth/register', body, userResultSchema, { signal });
  return item;
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RegisterInput) => register(input),
    onSuccess: (user) => {
      setSessionHint(true);
      queryClient.setQueryData(authKeys.session(), user);
    },
  });
}
