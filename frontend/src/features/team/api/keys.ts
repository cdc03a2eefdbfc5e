/** Query keys of the team feature (members, invitations, the caller's workspaces). */
export const teamKeys = {
  all: ['team'] as const,
  list: () => [...teamKeys.all, 'list'] as const,
  workspaces: () => [...teamKeys.all, 'workspaces'] as const,
};
