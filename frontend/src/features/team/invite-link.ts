/**
 * The invitation link of the email (`/invite?email=…&code=…`, built by the server's
 * `routes::team::invitation_link`) and where the invitation screen sends a signed-out
 * visitor: login or register with the invited email filled in and the link itself as the
 * `redirect` query, so the code comes back after signing in and is accepted then.
 */
export const INVITE_PATH = '/invite';

export interface InviteLink {
  code: string;
  email: string;
}

export function readInviteLink(search: string): InviteLink {
  const params = new URLSearchParams(search);
  return { code: (params.get('code') ?? '').trim(), email: (params.get('email') ?? '').trim() };
}

export function invitePath({ code, email }: InviteLink): string {
  const params = new URLSearchParams();
  if (email) params.set('email', email);
  params.set('code', code);
  return `${INVITE_PATH}?${params}`;
}

/** `/login` or `/register` that comes back to the invitation, the email prefilled. */
export function signInPath(mode: 'login' | 'register', link: InviteLink): string {
  const params = new URLSearchParams({ redirect: invitePath(link) });
  if (link.email) params.set('email', link.email);
  return `/${mode}?${params}`;
}
