/**
 * The root of every page: scroll restoration, the start-up relogin, the route guard, the
 * choice between the full layout and a bare page, and the fallback shown while a lazy
 * screen's chunk downloads.
 */
import { Center, Loader } from '@mantine/core';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isValidElement, Suspense, useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router';
import { accountKeys, accountsQuery, useAccounts } from '@/features/accounts';
import { hasSessionHint, SessionEndWatcher, useSession, type User } from '@/features/auth';
import { t } from '@/i18n';
import { resolveAccess } from './access';
import { AccountSelector } from './layout/account-selector';
import { useDocumentTitle } from './layout/useDocumentTitle';
import { lazyScreen } from './lazy/lazy-screen';
import { ScreenFallback } from './lazy/ScreenFallback';
import type { AppRoute } from './route-types';

/** The signed-in layout (sidebar, tasks, icons) is a chunk of its own: sign-in pages skip it. */
const AppLayout = lazyScreen(() => import('./layout/AppLayout'), 'AppLayout');

/** The `preload` of the lazy screen a route renders, if it renders one. */
export function screenPreload(route: AppRoute | undefined): (() => Promise<unknown>) | null {
  const type: unknown = isValidElement(route?.element) ? route.element.type : null;
  const preload = (typeof type === 'function' || typeof type === 'object') && type !== null ? (type as { preload?: unknown }).preload : undefined;
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

/**
 * Where this browser holds a session (its sign, the start-up relogin runs), the accounts are
 * asked beside the relogin rather than after its answer (issue 42 item 19: a round trip
 * before every signed-in first paint). They still count only once the relogin has found the
 * user (docs/product.md#4-sign-in-account-and-session, `useAccounts(user !== null)`); when it finds
 * none, the early answer is dropped, so a sign-in later in this page reads the accounts afresh.
 */
function useAccountsBesideRelogin(user: User | null, isLoading: boolean) {
  const queryClient = useQueryClient();
  const [early] = useState(() => isLoading && hasSessionHint());
  useEffect(() => {
    if (early) void queryClient.prefetchQuery(accountsQuery());
  }, [early, queryClient]);
  const signedOut = early && !isLoading && user === null;
  useEffect(() => {
    if (signedOut) queryClient.removeQueries({ queryKey: accountKeys.list(), exact: true });
  }, [signedOut, queryClient]);
}

/**
 * The data the first route's screen shows, asked beside the relogin too (the route's
 * `prefetch`, from the address; issue 42 item 19): asked by the screen, they would wait for
 * the relogin's answer and then for the whole page's first render. Dropped, like the early
 * accounts, when the relogin finds no session.
 */
function useRouteDataBesideRelogin(route: AppRoute, user: User | null, isLoading: boolean) {
  const queryClient = useQueryClient();
  const matches = useMatches();
  const location = useLocation();
  // The first route as the page opened on it (the relogin's answer is awaited on this one).
  const [first] = useState(() => (isLoading && hasSessionHint() && route.prefetch ? { prefetch: route.prefetch, params: matches[matches.length - 1]?.params ?? {}, search: location.search } : null));
  const asked = useRef<readonly QueryKey[]>([]);
  useEffect(() => {
    if (first) asked.current = first.prefetch(queryClient, first.params, new URLSearchParams(first.search));
  }, [first, queryClient]);
  const signedOut = first !== null && !isLoading && user === null;
  useEffect(() => {
    if (signedOut) for (const queryKey of asked.current) queryClient.removeQueries({ queryKey, exact: true });
  }, [signedOut, queryClient]);
}

/**
 * Asks for the layout's chunk (and its header's account selector) and the route's screen
 * while the session is still being checked, not after it (issue 42 item 19). True once the
 * first page's chunks are in (or failed, which the route's error element then says): the
 * start-up loader stays until then, so the page renders whole rather than through its
 * boundaries' fallbacks, each of which would hold back the page's reveal by 300 ms
 * (lib/lazy-component).
 */
function usePageChunks(route: AppRoute, mayNeedLayout: boolean): boolean {
  const preloadScreen = screenPreload(route);
  useEffect(() => {
    if (!mayNeedLayout) return;
    AppLayout.preload().catch(() => undefined);
    AccountSelector.preload().catch(() => undefined);
  }, [mayNeedLayout]);
  useEffect(() => {
    preloadScreen?.().catch(() => undefined);
  }, [preloadScreen]);
  const [firstPage] = useState(() => [...(mayNeedLayout ? [AppLayout.preload, AccountSelector.preload] : []), ...(preloadScreen ? [preloadScreen] : [])]);
  const [firstIn, setFirstIn] = useState(false);
  useEffect(() => {
    let live = true;
    void Promise.allSettled(firstPage.map((load) => load())).then(() => live && setFirstIn(true));
    return () => {
      live = false;
    };
  }, [firstPage]);
  return firstIn;
}

export function AppFrame() {
  const route = useCurrentRoute();
  const location = useLocation();
  const { user, isLoading } = useSession();
  useAccountsBesideRelogin(user, isLoading);
  useRouteDataBesideRelogin(route, user, isLoading);
  // docs/product.md#4-sign-in-account-and-session: the accounts load once the user is known to be
  // signed in; only pages that need an account wait for them.
  const accounts = useAccounts(user !== null);
  const waitsForAccounts = user !== null && route.needsAccount === true && accounts.isPending;
  const sessionEnded = useSessionEnded(user, isLoading);
  useDocumentTitle(t(route.title));
  const mayNeedLayout = !route.hideLayout;
  const firstChunksIn = usePageChunks(route, mayNeedLayout);

  if (isLoading || waitsForAccounts || !firstChunksIn) {
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
