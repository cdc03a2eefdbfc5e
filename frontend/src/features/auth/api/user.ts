/** The signed-in user as the auth and users calls return it (spec §3 User). */
import { z } from 'zod';

export const ROLES = ['owner', 'admin', 'writer', 'reader'] as const;
export const roleSchema = z.enum(ROLES);
export type Role = z.infer<typeof roleSchema>;

const appStoreConnectSchema = z.object({
  id: z.union([z.string(), z.number()]),
  name: z.string(),
  history: z.unknown(),
});

export const userSchema = z.object({
  id: z.union([z.string(), z.number()]),
  email: z.string(),
  fullName: z.string(),
  permission: roleSchema,
  workspaceId: z.union([z.string(), z.number()]),
  alternativeInvoiceEmail: z.string().nullable(),
  lastMonthSpend: z.number(),
  nextPurchaseId: z.string().nullable(),
  previousStatus: z.string().nullable(),
  paymentFailed: z.boolean(),
  purchase: z.record(z.string(), z.unknown()).nullable(),
  connects: z.object({
    appStore: z.array(appStoreConnectSchema),
    mmpEvent: z.record(z.string(), z.unknown()),
  }),
});
export type User = z.infer<typeof userSchema>;

export const userResultSchema = z.object({ item: userSchema });
