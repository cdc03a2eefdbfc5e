/** The app: providers around the history-mode router built from the route table. */
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { Providers } from './Providers';
import { toRouteObjects } from './router';

const router = createBrowserRouter(toRouteObjects());

export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
