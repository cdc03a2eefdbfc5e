/** Shared zod field rules; the password rules mirror the server's (8 to 128 characters). */
import { z } from 'zod';
import { t } from '@/i18n';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const requiredText = () => z.string().trim().min(1, t('common.required'));

/** A required value kept as typed (passwords are never trimmed). */
export const requiredSecret = () => z.string().min(1, t('common.required'));

export const emailField = () =>
  z.string().trim().min(1, t('common.required')).pipe(z.email(t('common.invalidEmail')));

export const passwordField = () =>
  requiredSecret().min(PASSWORD_MIN, t('password.tooShort')).max(PASSWORD_MAX, t('password.tooLong'));

/** Refinement: `repeatPassword` must equal the field `against` ('Passwords do not match'). */
export function repeatPasswordRule<K extends string>(against: K) {
  return (values: Record<K | 'repeatPassword', string>, ctx: z.RefinementCtx) => {
    if (values.repeatPassword && values.repeatPassword !== values[against]) {
      ctx.addIssue({ code: 'custom', path: ['repeatPassword'], message: t('password.mismatch') });
    }
  };
}
