/** What every change of the team does once it settles: the team list is read again (a refused change may still have left it stale). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { teamKeys } from './keys';

export function useTeamMutation<I, R>(fn: (input: I) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => client.invalidateQueries({ queryKey: teamKeys.list() }),
  });
}
