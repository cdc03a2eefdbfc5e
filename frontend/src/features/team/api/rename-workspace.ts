/**
 * PATCH /api/workspaces/current {name}: renames the session's workspace (owners and admins;
 * docs/api/team.md). The name is what invitations ('… invited you to join <name>'), the
 * header's switcher and the accept screen show. Its rules (required, at most 100 characters)
 * are the server's: a refused name comes back as the field's message in the envelope.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { zEnvelopeItemWorkspaceItem } from '@/api/generated/zod.gen';
import { api, type CallOptions } from '@/lib/api-client';
import { teamKeys } from './keys';
import type { Workspace } from './workspaces';

export const renameInputSchema = z.object({ name: z.string() });
export type RenameInput = z.output<typeof renameInputSchema>;

export async function renameWorkspace(input: RenameInput, { signal }: CallOptions = {}): Promise<Workspace> {
  const { item } = await api.patch('/workspaces/current', input, zEnvelopeItemWorkspaceItem.shape.result, { signal });
  return item;
}

export function useRenameWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RenameInput) => renameWorkspace(input),
    onSuccess: (renamed) => {
      queryClient.setQueryData(teamKeys.workspaces(), (list: Workspace[] | undefined) => list?.map((w) => (w.id === renamed.id ? { ...w, name: renamed.name } : w)));
      void queryClient.invalidateQueries({ queryKey: teamKeys.workspaces() });
    },
  });
}
