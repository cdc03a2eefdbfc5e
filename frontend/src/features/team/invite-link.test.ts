import { invitePath, readInviteLink, signInPath } from './invite-link';

describe('invitation link', () => {
  it('reads the link the server writes and keeps it through sign-in', () => {
    const link = readInviteLink('?email=bob%2B1%40example.com&code=ABCDEFGHJKLMNPQRSTUV');
    expect(link).toEqual({ email: 'bob+1@example.com', code: 'ABCDEFGHJKLMNPQRSTUV' });
    expect(invitePath(link)).toBe('/invite?email=bob%2B1%40example.com&code=ABCDEFGHJKLMNPQRSTUV');
    const register = new URL(signInPath('register', link), 'http://x');
    expect(register.pathname).toBe('/register');
    expect(register.searchParams.get('email')).toBe('bob+1@example.com');
    expect(register.searchParams.get('redirect')).toBe(invitePath(link));
    expect(readInviteLink('')).toEqual({ email: '', code: '' });
    expect(signInPath('login', { email: '', code: 'C' })).toBe('/login?redirect=%2Finvite%3Fcode%3DC');
  });
});
