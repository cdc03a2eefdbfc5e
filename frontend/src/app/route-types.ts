/** The shape of one entry of the route table. */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Params } from 'react-router';
import type { Role } from '@/features/auth';
import type { MessageKey } from '@/i18n';

/**
 * Who may open a route: `public` pages are for signed-out visitors too (sign-in, password
 * recovery), `signedIn` pages need a session, `any` pages never look at the session.
 */
export type Access = 'public' | 'signedIn' | 'any';

export interface AppRoute {
  path: string;
  title: MessageKey;
  access: Access;
  /** Roles allowed on a signed-in route; others go to /restricted. All roles when absent. */
  roles?: readonly Role[];
  /** The page needs a connected ad account. */
  needsAccount?: boolean;
  /** Disable the main menu (the oauth route, docs/product.md#2-layout). */
  disableMenu?: boolean;
  /** Hide the header and the sidebar. */
  hideLayout?: boolean;
  /** Instead of rendering, send the visitor on, by sign-in state. */
  redirect?: { signedIn?: string; anonymous?: string };
  element?: ReactNode;
  /**
   * Asks the data the route's screen shows first, from the address (its params and query),
   * before the page renders: called at start-up beside the session's relogin. Returns the
   * query keys asked, dropped when the relogin finds no session.
   */
  prefetch?: (client: QueryClient, params: Params, search: URLSearchParams) => readonly QueryKey[];
}
