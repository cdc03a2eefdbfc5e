/** Query keys of the options feature. */
export const optionKeys = {
  all: ['options'] as const,
  front: () => [...optionKeys.all, 'front'] as const,
};
