/**
 * GET /api/reports/allTags: the workspace's report tags by table type (CAMPAIGNS, GROUPS,
 * KEYWORDS, SEARCHTERMS), for the tag filter.
 */
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api, type CallOptions } from '@/lib/api-client';
import { optimizationKeys } from './keys';

const tagSchema = z.object({ _id: z.string(), name: z.string(), color: z.string(), type: z.string() });
export type Tag = z.infer<typeof tagSchema>;
const tagsByTypeSchema = z.record(z.string(), z.array(tagSchema));

export async function getAllTags({ signal }: CallOptions = {}): Promise<Record<string, Tag[]>> {
  return api.get('/reports/allTags', tagsByTypeSchema, { signal });
}

export function useAllTags() {
  return useQuery({ queryKey: optimizationKeys.tags(), queryFn: ({ signal }) => getAllTags({ signal }), staleTime: 60_000 });
}
