/** Options saved per user (spec §3): a map of option key to any JSON value. */
import { z } from 'zod';

export const frontOptionsSchema = z.record(z.string(), z.unknown());
export type FrontOptions = z.infer<typeof frontOptionsSchema>;

export const frontOptionsResultSchema = z.object({ item: frontOptionsSchema });
