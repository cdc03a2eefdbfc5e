/** Query keys of the accounts feature. */
export const accountKeys = {
  all: ['accounts'] as const,
  list: () => [...accountKeys.all, 'list'] as const,
  publicKey: () => [...accountKeys.all, 'public-key'] as const,
};
