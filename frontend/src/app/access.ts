/** The route guard as a pure function: where a visitor must go instead, or null to stay. */
import type { User } from '@/features/auth';
import type { AppRoute } from './route-types';

export const LOGIN_PATH = '/login';
export const SIGNED_IN_HOME = '/optimization';
export const RESTRICTED_PATH = '/restricted';
/**
 * docs/product.md#4-sign-in-account-and-session sends a signed-in user without a connected account,
 * on a page that needs one, to the API connection screen (docs/product.md#2-url-paths-and-access:
 * /oauth_v2, which is also where the connect popup returns).
 */
export const NEEDS_ACCOUNT_PATH = '/oauth_v2';

export interface VisitedLocation {
  pathname: string;
  search: string;
}

/** The `redirect` query, when it is a path of this app (never another origin). */
export function redirectQuery(search: string): string | null {
  const target = new URLSearchParams(search).get('redirect');
  if (!target || !target.startsWith('/') || target.startsWith('//')) return null;
  return target;
}

export function loginWithRedirect({ pathname, search }: VisitedLocation): string {
  return `${LOGIN_PATH}?${new URLSearchParams({ redirect: pathname + search })}`;
}

/**
 * @param sessionEnded the user signed out in this page's lifetime: they go to the login
 *   screen itself, while visitors who arrive signed out come back after login (redirect query).
 * @param hasAccount the workspace has a connected ad account (the account list, loaded at
 *   start for signed-in users).
 */
export function resolveAccess(
  route: AppRoute,
  user: User | null,
  location: VisitedLocation,
  sessionEnded = false,
  hasAccount = true,
): string | null {
  if (!user) {
    if (route.redirect?.anonymous) return route.redirect.anonymous;
    if (route.access !== 'signedIn') return null;
    return sessionEnded ? LOGIN_PATH : loginWithRedirect(location);
  }
  if (route.redirect?.signedIn) return redirectQuery(location.search) ?? route.redirect.signedIn;
  if (route.roles && !route.roles.includes(user.permission)) return RESTRICTED_PATH;
  if (route.needsAccount && !hasAccount) return NEEDS_ACCOUNT_PATH;
  return null;
}
