/** Query keys of the attribution feature (integrations, their events, the event settings). */
export const attributionKeys = {
  all: ['attribution'] as const,
  integrations: () => [...attributionKeys.all, 'integrations'] as const,
  events: (provider: string) => [...attributionKeys.all, 'events', provider] as const,
  eventNames: () => [...attributionKeys.all, 'event-names'] as const,
};
