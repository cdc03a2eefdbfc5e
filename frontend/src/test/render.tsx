/** Renders the real route table in a memory router, signed in as `user` (or signed out). */
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Providers } from '@/app/Providers';
import { toRouteObjects } from '@/app/router';
import { setSessionHint, type User } from '@/features/auth';
import { createQueryClient } from '@/lib/query-client';
import { fail, mockApiDefault, ok } from './fetch-mock';
import { makeNotificationPage, makePlanAnswer } from './fixtures';

/**
 * A signed-in render also leaves the sign of a session a browser keeps after signing in
 * (features/auth/api/session-hint), so the start-up relogin runs; a signed-out render
 * leaves local storage as the test set it.
 */
export function renderApp(path: string, user: User | null = null) {
  if (user) setSessionHint(true);
  mockApiDefault('GET /api/auth/relogin', user ? ok({ item: user }) : fail(401, 'Unauthorized'));
  mockApiDefault('GET /api/tasks', ok({ items: [] }));
  mockApiDefault('GET /api/account/getAll', ok({ items: [] }));
  // The sidebar's unread count (features/activity): none.
  mockApiDefault('GET /api/accountsActions/all', ok(makeNotificationPage()));
  // The plan (features/plans): free, no banner, no modal.
  mockApiDefault('GET /api/plan/current', ok(makePlanAnswer()));
  // The header's workspace switcher (features/team): one workspace, so it stays hidden.
  mockApiDefault('GET /api/workspaces/all', ok({ items: [] }));
  mockApiDefault('GET /api/users/one/connect/appStore', ok({ items: [] }));
  const router = createMemoryRouter(toRouteObjects(), { initialEntries: [path] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const view = render(
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>,
  );
  const location = () => `${router.state.location.pathname}${router.state.location.search}`;
  return { ...view, router, queryClient, location };
}
