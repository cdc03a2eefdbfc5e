/**
 * The root of every page: scroll restoration, the start-up relogin, the route guard, and the
 * choice between the full layout and a bare page.
 */
import { Center, Loader } from '@mantine/core';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useSession } from '@/features/auth';
import { t } from '@/i18n';
import { resolveAccess } from './access';
import { AppLayout } from './layout/AppLayout';
import { useDocumentTitle } from './layout/useDocumentTitle';
import type { AppRoute } from './route-types';

function useCurrentRoute(): AppRoute {
  const matches = useMatches();
  return matches[matches.length - 1]?.handle as AppRoute;
}

export function AppFrame() {
  const route = useCurrentRoute();
  const location = useLocation();
  const { user, isLoading } = useSession();
  useDocumentTitle(t(route.title));

  if (isLoading) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  const target = resolveAccess(route, user, location);
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
