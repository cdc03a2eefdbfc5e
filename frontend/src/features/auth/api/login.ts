/** POST /api/auth/login {email, password}: signs in and makes the user the session. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { emailField, requiredSecret } from '@/lib/validation';
import { authKeys } from './keys';
import { setSessionHint } from './session-hint';
import { userResultSchema, type User } from './user';

export const loginInputSchema = z.object({
  email: emailField(),
  password: requiredSecret(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export async function login(input: LoginInput, { signal }: CallOptions = {}): Promise<User> {
  const { item } = await api.post('/auth/login', input, userResultSchema, { signal });
  return item;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => login(input),
    onSuccess: (user) => {
      setSessionHint(true);
      queryClient.setQueryData(authKeys.session(), user);
    },
  });
}
