/** POST /api/auth/checkCode {code}: 400 'The code is invalid or has expired' when unusable. */
import { z } from 'zod';
import { zEnvelopeCodeValid } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';

/** Recovery codes are 8 characters of A-Z and 2-9; input is upper-cased and trimmed. */
export const recoveryCodeField = () =>
  z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z2-9]{8}$/, 'The code is invalid or has expired');

/** The document's `CodeValid`. */
const checkCodeResultSchema = zEnvelopeCodeValid.shape.result;

export async function checkCode(code: string, { signal }: CallOptions = {}): Promise<boolean> {
  const { valid } = await api.post('/auth/checkCode', { code }, checkCodeResultSchema, { signal });
  return valid;
}
