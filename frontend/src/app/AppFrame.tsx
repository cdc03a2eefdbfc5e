/**
 * The root of every page: scroll restoration, the start-up relogin, the route guard, the
 * choice between the full layout and a bare page, and the fallback shown while a lazy
 * screen's chunk downloads.
 */
import { Center, Loader } from '@mantine/core';
import { isValidElement, Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { useAccounts } from '@/features/accounts';
import { SessionEndWatcher, useSession, type User } from '@/features/auth';
import { t } from '@/i18n';
import { resolveAccess } from './access';
import { useDocumentTitle } from './layout/useDocumentTitle';
import { lazyScreen } from './lazy/lazy-screen';
import { ScreenFallback } from './lazy/ScreenFallback';
import type { AppRoute } from './route-types';

/** The signed-in layout (sidebar, tasks, icons) is a chunk of its own: sign-in pages skip it. */
const AppLayout = lazyScreen(() => import('./layout/AppLayout'), 'AppLayout');

/** The `preload` of the lazy screen a route renders, if it renders one. */
export function screenPreload(route: AppRoute | undefined): (() => Promise<unknown>) | null {
  const type: unknown = isValidElement(route?.element) ? route.element.type : null;
  const preload = typeof type === 'object' && type !== null ? (type as { preload?: unknown }).preload : undefined;
  return typeof preload === 'function' ? (preload as () => Promise<unknown>) : null;
}

function useCurrentRoute(): AppRoute {
  const matches = useMatches();
  return matches[matches.length - 1]?.handle as AppRoute;
}

/** True once a signed-in user of this page load is signed out (until someone signs in). */
function useSessionEnded(user: User | null, isLoading: boolean): boolean {
  const [hadUser, setHadUser] = useState(false);
  // Derived state, adjusted while rendering: https://react.dev/reference/react/useState#storing-information-from-previous-renders
  if (user && !hadUser) setHadUser(true);
  return !isLoading && !user && hadUser;
}

export function AppFrame() {
  const route = useCurrentRoute();
  const location = useLocation();
  const { user, isLoading } = useSession();
  // Spec §4: the accounts load once the user is known to be signed in; only pages that need
  // an account wait for them.
  const accounts = useAccounts(user !== null);
  const waitsForAccounts = user !== null && route.needsAccount === true && accounts.isPending;
  const sessionEnded = useSessionEnded(user, isLoading);
  useDocumentTitle(t(route.title));
  const mayNeedLayout = !route.hideLayout;
  useEffect(() => {
    // Download the layout while the session is still being checked, not after.
    if (mayNeedLayout) AppLayout.preload().catch(() => undefined);
  }, [mayNeedLayout]);
  // The route's screen too: its chunk arrives with the session and the accounts instead of
  // after them (issue 42 item 19).
  const preloadScreen = screenPreload(route);
  useEffect(() => {
    preloadScreen?.().catch(() => undefined);
  }, [preloadScreen]);

  if (isLoading || waitsForAccounts) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  const hasAccount = (accounts.data?.length ?? 0) > 0;
  const target = resolveAccess(route, user, location, sessionEnded, hasAccount);
  if (target) return <Navigate to={target} replace />;
  const withLayout = user !== null && !route.hideLayout;
  const screen = (
    <Suspense fallback={<ScreenFallback bare={!withLayout} />}>
      <Outlet />
    </Suspense>
  );
  return (
    <>
      <ScrollRestoration />
      <SessionEndWatcher />
      {withLayout ? (
        <Suspense fallback={<ScreenFallback bare />}>
          <AppLayout user={user} title={t(route.title)} menuDisabled={route.disableMenu === true}>
            {screen}
          </AppLayout>
        </Suspense>
      ) : (
        screen
      )}
    </>
  );
}
