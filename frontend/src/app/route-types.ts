/** The shape of one entry of the route table. */
import type { ReactNode } from 'react';
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
  /** Disable the main menu (the oauth route, spec §2). */
  disableMenu?: boolean;
  /** Hide the header and the sidebar. */
  hideLayout?: boolean;
  /** Instead of rendering, send the visitor on, by sign-in state. */
  redirect?: { signedIn?: string; anonymous?: string };
  element?: ReactNode;
}
