/** POST /api/auth/register: creates the account and signs the new user in. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { emailField, passwordField, repeatPasswordRule, requiredText, requiredSecret } from '@/lib/validation';
import { authKeys } from './keys';
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

export async function register(input: RegisterInput): Promise<User> {
  const { item } = await api.post('/auth/register', { ...input, source: REGISTER_SOURCE }, userResultSchema);
  return item;
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: (user) => queryClient.setQueryData(authKeys.session(), user),
  });
}
