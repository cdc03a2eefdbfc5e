/**
 * The root of every page: scroll restoration, the start-up relogin, the route guard, and the
 * choice between the full layout and a bare page.
 */
import { Center, Loader } from '@mantine/core';
import { useRef } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useSession, type User } from '@/features/auth';
import { t } from '@/i18n';
import { resolveAccess } from './access';
import { AppLayout } from './layout/AppLayout';
import { useDocumentTitle } from './layout/useDocumentTitle';
import type { AppRoute } from './route-types';

function useCurrentRoute(): AppRoute {
  const matches = useMatches();
  return matches[matches.length - 1]?.handle as AppRoute;
}

/** True once a signed-in user of this page load is signed out (until someone signs in). */
function useSessionEnded(user: User | null, isLoading: boolean): boolean {
  const hadUser = useRef(false);
  if (user) hadUser.current = true;
  return !isLoading && !user && hadUser.current;
}

export function AppFrame() {
  const route = useCurrentRoute();
  const location = useLocation();
  const { user, isLoading } = useSession();
  const sessionEnded = useSessionEnded(user, isLoading);
  useDocumentTitle(t(route.title));

  if (isLoading) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  const target = resolveAccess(route, user, location, sessionEnded);
  if (target) return <Navigate to={target} replace />;
  return (
    <>
      <ScrollRestoration />
      {user && !route.hideLayout ? (
        <AppLayout user={user} title={t(route.title)}>
          <Outlet />
        </AppLayout>
      ) : (
        <Outlet />
      )}
    </>
  );
}
