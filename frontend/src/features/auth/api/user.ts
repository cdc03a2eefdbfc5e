/**
 * The signed-in user as the auth and users calls return it (docs/product.md#3-user): the document's
 * `UserItem` (`Envelope_Item_UserItem` of login, register, relogin, me, users/changeValue
 * and workspaces/switch).
 */
import { z } from 'zod';
import { zEnvelopeItemUserItem, zUserItem } from '@/api/generated/zod.gen';

export const ROLES = ['owner', 'admin', 'writer', 'reader'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

/**
 * The document gives `permission` as a pattern of the four roles rather than an enum, so the
 * generated type is a plain string; the screens need the role itself. The server's pattern
 * and this enum accept the same four words.
 */
export const userSchema = zUserItem.extend({ permission: roleSchema });
export type User = z.infer<typeof userSchema>;

export const userResultSchema = zEnvelopeItemUserItem.shape.result.extend({ item: userSchema });
