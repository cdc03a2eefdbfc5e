import { oauthMessageFromQuery, popupFeatures, POPUP_SIZE, readOauthMessage } from './oauth-message';

const origin = 'http://app.test';

describe('the popup hand-over', () => {
  it('reads state and code (or the provider error) from the return query', () => {
    expect(oauthMessageFromQuery('?code=c1&state=s1')).toEqual({ type: 'oauth', state: 's1', code: 'c1' });
    expect(oauthMessageFromQuery('?error=access_denied&state=s1')).toEqual({ type: 'oauth', state: 's1', error: 'access_denied' });
    expect(oauthMessageFromQuery('')).toBeNull();
    expect(oauthMessageFromQuery('?code=c1')).toBeNull();
    expect(oauthMessageFromQuery('?state=s1')).toBeNull();
  });

  it('accepts only oauth messages from its own origin', () => {
    const data = { type: 'oauth', state: 's', code: 'c' };
    expect(readOauthMessage({ origin, data }, origin)).toEqual(data);
    expect(readOauthMessage({ origin: 'http://evil.test', data }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: { ...data, type: 'other' } }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: { type: 'oauth', state: 's' } }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: { type: 'oauth', code: 'c' } }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: 'oauth' }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: null }, origin)).toBeNull();
    expect(readOauthMessage({ origin, data: { type: 'oauth', state: 's', error: 'access_denied' } }, origin)).toEqual({
      type: 'oauth',
      state: 's',
      error: 'access_denied',
    });
  });

  it('opens a 1025×580 popup centred over the window', () => {
    expect(POPUP_SIZE).toEqual({ width: 1025, height: 580 });
    expect(popupFeatures({ screenX: 100, screenY: 50, outerWidth: 1425, outerHeight: 780 })).toBe(
      'popup=yes,width=1025,height=580,left=300,top=150',
    );
    expect(popupFeatures({ screenX: 0, screenY: 0, outerWidth: 800, outerHeight: 400 })).toContain('left=0,top=0');
  });
});
