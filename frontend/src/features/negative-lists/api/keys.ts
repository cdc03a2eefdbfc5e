/** Query keys of the negative keyword lists. */
export const negativeListKeys = {
  all: ['negative-lists'] as const,
  list: (listId: string) => ['negative-lists', listId] as const,
};
