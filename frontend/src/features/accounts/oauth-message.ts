/**
 * The popup connect's hand-over (docs/product.md#2-url-paths-and-access,
 * docs/product.md#4-sign-in-account-and-session): the popup comes back to /oauth_v2 with state and
 * code (or the provider's error) in its query, posts them to the window that opened it as a message
 * of type 'oauth', and closes; the opener accepts only such messages from its own origin and runs
 * the oauth check with them.
 */

/** The popup's size (docs/product.md#9-timings-and-sizes). */
export const POPUP_SIZE = { width: 1025, height: 580 } as const;
export const POPUP_NAME = 'searchdeck-oauth';

export interface OauthMessage {
  type: 'oauth';
  state: string;
  code?: string;
  /** The provider's refusal, e.g. access_denied. */
  error?: string;
}

/** The message a return to /oauth_v2 carries, or null when its query has no state. */
export function oauthMessageFromQuery(search: string): OauthMessage | null {
  const params = new URLSearchParams(search);
  const state = params.get('state');
  const code = params.get('code');
  const error = params.get('error');
  if (!state || (!code && !error)) return null;
  return { type: 'oauth', state, ...(code ? { code } : {}), ...(error ? { error } : {}) };
}

/** The oauth message of a `message` event, or null for anything else (other origins too). */
export function readOauthMessage(event: Pick<MessageEvent, 'origin' | 'data'>, origin: string): OauthMessage | null {
  if (event.origin !== origin) return null;
  const data = event.data as Partial<OauthMessage> | null;
  if (!data || typeof data !== 'object' || data.type !== 'oauth' || typeof data.state !== 'string' || !data.state) {
    return null;
  }
  const code = typeof data.code === 'string' && data.code ? data.code : undefined;
  const error = typeof data.error === 'string' && data.error ? data.error : undefined;
  if (!code && !error) return null;
  return { type: 'oauth', state: data.state, ...(code ? { code } : {}), ...(error ? { error } : {}) };
}

/** window.open features of a popup of POPUP_SIZE centred over `screen`-like bounds. */
export function popupFeatures(outer: { screenX: number; screenY: number; outerWidth: number; outerHeight: number }): string {
  const left = Math.max(0, Math.round(outer.screenX + (outer.outerWidth - POPUP_SIZE.width) / 2));
  const top = Math.max(0, Math.round(outer.screenY + (outer.outerHeight - POPUP_SIZE.height) / 2));
  return `popup=yes,width=${POPUP_SIZE.width},height=${POPUP_SIZE.height},left=${left},top=${top}`;
}
