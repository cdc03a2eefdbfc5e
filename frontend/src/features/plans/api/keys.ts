/** Query keys of the plans feature. */
export const planKeys = {
  all: ['plans'] as const,
  /** `plan/current`, per context (the integrations page asks for its MMP variants). */
  current: (context: PlanContext = 'default') => [...planKeys.all, 'current', context] as const,
  purchases: () => [...planKeys.all, 'purchases'] as const,
};

/** Where `plan/current` is asked from: anywhere, or the integrations page. */
export type PlanContext = 'default' | 'integrations';
