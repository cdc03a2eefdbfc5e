/**
 * What every write of an integration does with its answer: the list's cached entry becomes the
 * answered item at once (so the screen shows it connected, or not), then the list is read again.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Integration } from './get-integrations';
import { attributionKeys } from './keys';

export function afterIntegrationWrite(client: QueryClient) {
  return (item: Integration) => {
    client.setQueryData(attributionKeys.integrations(), (list: Integration[] | undefined) =>
      list?.map((entry) => (entry.provider === item.provider ? item : entry)),
    );
    void client.invalidateQueries({ queryKey: attributionKeys.integrations() });
  };
}
