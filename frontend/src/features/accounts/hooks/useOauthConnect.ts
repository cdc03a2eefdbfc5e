/**
 * 'Continue with Apple' (docs/product.md#2-add-account-modal,
 * docs/product.md#4-sign-in-account-and-session, docs/product.md#8-account-and-oauth-messages):
 * fetch the provider's authorize URL for the name, show it in a 1025×580 popup, wait for the
 * popup's oauth message, then run the oauth check. On status OK the connect finishes like any other
 * (`useConnected`); a failure is a red snackbar for 6 s. The popup is opened before the URL
 * arrives, in the click itself, so pop-up blockers let it through.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { t } from '@/i18n';
import { errorMessage } from '@/lib/api-error';
import { showLongSnackbar } from '@/lib/notifications';
import { checkOauth, type OauthResult } from '../api/oauth';
import { getOauthUrl } from '../api/url-oauth';
import { POPUP_NAME, popupFeatures, readOauthMessage, type OauthMessage } from '../oauth-message';
import { useConnected } from './useConnected';

export type OauthPhase = 'idle' | 'opening' | 'waiting' | 'checking';

/** What to say about a failed check: the server's message, or the spec's network text. */
export function oauthFailureText(error: unknown): string {
  return errorMessage(error) === 'Bad Gateway' ? t('accounts.connectFailed') : errorMessage(error);
}

export function useOauthConnect({ onDone, accountId }: { onDone?: () => void; accountId?: string } = {}) {
  const [phase, setPhase] = useState<OauthPhase>('idle');
  const popup = useRef<Window | null>(null);
  const connected = useConnected();

  const finish = useCallback(
    async (message: OauthMessage) => {
      setPhase('checking');
      let result: OauthResult;
      try {
        result = await checkOauth({ state: message.state, code: message.code, error: message.error, accountId });
      } catch (error) {
        setPhase('idle');
        showLongSnackbar(oauthFailureText(error), 'danger');
        return;
      }
      if (result.status !== 'OK') {
        console.error('Result status in not OK', result.status);
        setPhase('idle');
        showLongSnackbar(t('accounts.connectFailed'), 'danger');
        return;
      }
      setPhase('idle');
      await connected(result.accountId, { added: result.added, previousName: result.previousName ?? null, name: null });
      onDone?.();
    },
    [accountId, connected, onDone],
  );

  useEffect(() => {
    if (phase !== 'waiting') return undefined;
    // One check per popup: a second message (a popup that posts twice) is ignored, since its
    // single-use state would only fail.
    let handled = false;
    const onMessage = (event: MessageEvent) => {
      const message = readOauthMessage(event, window.location.origin);
      if (!message || handled) return;
      handled = true;
      void finish(message);
    };
    window.addEventListener('message', onMessage);
    // A popup closed without an answer ends the wait (one more tick first: the popup closes
    // itself right after posting, and its message may still be on its way).
    let closedTicks = 0;
    const watch = window.setInterval(() => {
      closedTicks = popup.current?.closed ? closedTicks + 1 : 0;
      if (closedTicks >= 2) setPhase((p) => (p === 'waiting' ? 'idle' : p));
    }, 500);
    return () => {
      window.removeEventListener('message', onMessage);
      window.clearInterval(watch);
    };
  }, [phase, finish]);

  const start = useCallback(async (accountName: string) => {
    popup.current?.close();
    const opened = window.open('about:blank', POPUP_NAME, popupFeatures(window));
    popup.current = opened;
    setPhase('opening');
    let url: string;
    try {
      url = await getOauthUrl(accountName);
    } catch (error) {
      opened?.close();
      setPhase('idle');
      throw error;
    }
    if (!opened) {
      setPhase('idle');
      showLongSnackbar(t('accounts.popupBlocked'), 'danger');
      return;
    }
    opened.location.href = url;
    setPhase('waiting');
  }, []);

  return { phase, start };
}
