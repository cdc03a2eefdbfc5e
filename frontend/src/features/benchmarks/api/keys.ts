/** Query keys of the benchmarks feature (the workspace's apps, each app's targets by kind). */
export const benchmarksKeys = {
  all: ['benchmarks'] as const,
  apps: () => [...benchmarksKeys.all, 'apps'] as const,
  app: (adamId: string) => [...benchmarksKeys.all, 'app', adamId] as const,
  installs: (adamId: string) => [...benchmarksKeys.app(adamId), 'installs'] as const,
  events: (adamId: string, eventName: string) => [...benchmarksKeys.app(adamId), 'events', eventName] as const,
  revenues: (adamId: string) => [...benchmarksKeys.app(adamId), 'revenues'] as const,
  eventNames: () => [...benchmarksKeys.all, 'event-names'] as const,
  countries: () => [...benchmarksKeys.all, 'countries'] as const,
};
