/** POST /api/auth/login {email, password}: signs in and makes the user the session. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { emailField, requiredSecret } from '@/lib/validation';
import { authKeys } from './keys';
import { userResultSchema, type User } from './user';

export const loginInputSchema = z.object({
  email: emailField(),
  password: requiredSecret(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export async function login(input: LoginInput): Promise<User> {
  const { item } = await api.post('/auth/login', input, userResultSchema);
  return item;
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: (user) => queryClient.setQueryData(authKeys.session(), user),
  });
}
