/** Theme, notifications and the query client around the whole app. */
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { SNACKBAR_MS } from '@/lib/notifications';
import { theme } from './theme';

interface ProvidersProps {
  queryClient: QueryClient;
  /** `test` turns off Mantine's transitions so tests never race an opening popover. */
  env?: 'default' | 'test';
  children: ReactNode;
}

export function Providers({ queryClient, env = 'default', children }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} env={env}>
      <Notifications autoClose={SNACKBAR_MS} position="top-right" />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
