/**
 * The guard against the access table of docs/product.md#2-url-paths-and-access and the roles of
 * docs/product.md#6-roles-and-route-limits. Rows for screens of later issues run through the guard
 * as synthetic routes; rows this issue ships must also match the real route table.
 */
import { ROLES, type Role } from '@/features/auth';
import { makeUser, userWithRole } from '@/test/fixtures';
import { NEEDS_ACCOUNT_PATH, resolveAccess } from './access';
import { appRoutes } from './routes';
import type { AppRoute } from './route-types';

const EDITORS: readonly Role[] = ['owner', 'admin', 'writer'];
const MANAGERS: readonly Role[] = ['owner', 'admin'];

interface SpecRow {
  path: string;
  access: AppRoute['access'];
  roles?: readonly Role[];
  needsAccount?: boolean;
  hideLayout?: boolean;
}

const SPEC_TABLE: SpecRow[] = [
  { path: '/', access: 'any' },
  { path: '/login', access: 'public', hideLayout: true },
  { path: '/register', access: 'public', hideLayout: true },
  { path: '/keyword-suggester', access: 'signedIn', roles: EDITORS, needsAccount: true },
  { path: '/checkout', access: 'signedIn', roles: EDITORS, hideLayout: true },
  { path: '/payment', access: 'signedIn', roles: EDITORS, needsAccount: true, hideLayout: true },
  { path: '/reset', access: 'public', hideLayout: true },
  { path: '/change', access: 'public', hideLayout: true },
  { path: '/oauth_v2', access: 'signedIn' },
  { path: '/campaign-lab', access: 'signedIn', needsAccount: true },
  { path: '/aso-builder', access: 'signedIn', roles: EDITORS },
  { path: '/auto-rules', access: 'signedIn', roles: EDITORS },
  // The screen's own pages: a rule's editor (new or saved) and its run history.
  { path: '/auto-rules/new', access: 'signedIn', roles: EDITORS },
  { path: '/auto-rules/:ruleId/edit', access: 'signedIn', roles: EDITORS },
  { path: '/auto-rules/:ruleId/runs', access: 'signedIn', roles: EDITORS },
  { path: '/activity-log', access: 'signedIn', needsAccount: true },
  { path: '/optimization', access: 'signedIn' },
  // optimization_accounts (All accounts), then optimization_orgs.
  { path: '/optimization/accounts', access: 'signedIn' },
  { path: '/optimization/:accountId', access: 'signedIn' },
  // The drill-down levels (campaign-id-{id} and ad-group-id-{id} segments, read by the screen).
  { path: '/optimization/:accountId/:orgId', access: 'signedIn' },
  { path: '/optimization/:accountId/:orgId/:campaign/:tab', access: 'signedIn' },
  { path: '/optimization/:accountId/:orgId/:campaign/:adGroup/:tab', access: 'signedIn' },
  { path: '/settings', access: 'signedIn' },
  { path: '/settings/general', access: 'signedIn' },
  { path: '/settings/team', access: 'signedIn', roles: MANAGERS },
  { path: '/settings/subscription', access: 'signedIn', roles: MANAGERS },
  { path: '/settings/invoice', access: 'signedIn', roles: EDITORS },
  { path: '/settings/password', access: 'signedIn' },
  // Settings › Integrations and a provider's page (?provider=): every signed-in role.
  { path: '/settings/integrations', access: 'signedIn' },
  { path: '/settings/integration', access: 'signedIn' },
  // Settings › Benchmarks and an app's targets (?adamId=): every signed-in role.
  { path: '/settings/benchmarks', access: 'signedIn' },
  { path: '/settings/benchmarks/app', access: 'signedIn' },
  { path: '/restricted', access: 'any' },
  // The invitation email's link (docs/api/team.md): signed in or out, without the layout.
  { path: '/invite', access: 'any', hideLayout: true },
  { path: '*', access: 'any', hideLayout: true },
];

const at = (pathname: string, search = '') => ({ pathname, search });
const routeOf = (row: SpecRow): AppRoute =>
  appRoutes.find((r) => r.path === row.path) ?? { ...row, title: 'app.name' };
const withAccount = (role: Role) => makeUser({ permission: role });

describe('the route table matches spec §2', () => {
  it.each(appRoutes.map((r) => [r.path, r] as const))('%s', (path, route) => {
    const row = SPEC_TABLE.find((r) => r.path === path);
    expect(row?.path).toBe(path);
    expect(route.access).toBe(row?.access);
    expect(route.roles).toEqual(row?.roles);
    expect(Boolean(route.needsAccount)).toBe(Boolean(row?.needsAccount));
    expect(Boolean(route.hideLayout)).toBe(Boolean(row?.hideLayout));
  });
});

describe('signed-out visitors', () => {
  const signedInRows = SPEC_TABLE.filter((r) => r.access === 'signedIn');
  it.each(signedInRows.map((r) => [r.path, r] as const))('%s → login with a redirect', (path, row) => {
    expect(resolveAccess(routeOf(row), null, at(path, '?accountId=3'))).toBe(
      `/login?redirect=${encodeURIComponent(`${path}?accountId=3`)}`,
    );
  });

  const openRows = SPEC_TABLE.filter((r) => r.access !== 'signedIn' && r.path !== '/');
  it.each(openRows.map((r) => [r.path, r] as const))(
    '%s proceeds',
    (path, row) => {
      expect(resolveAccess(routeOf(row), null, at(path))).toBeNull();
    },
  );

  it('home → login', () => {
    expect(resolveAccess(appRoutes.find((r) => r.path === '/')!, null, at('/'))).toBe('/login');
  });
});

describe('signed-in users', () => {
  it.each(['/', '/login', '/register'])('%s → /optimization', (path) => {
    const route = appRoutes.find((r) => r.path === path)!;
    expect(resolveAccess(route, makeUser(), at(path))).toBe('/optimization');
  });

  it('honour the redirect query after login', () => {
    const route = appRoutes.find((r) => r.path === '/login')!;
    expect(resolveAccess(route, makeUser(), at('/login', '?redirect=%2Fsettings%2Fpassword'))).toBe('/settings/password');
  });

  it('ignore a redirect query to another origin', () => {
    const route = appRoutes.find((r) => r.path === '/login')!;
    expect(resolveAccess(route, makeUser(), at('/login', '?redirect=%2F%2Fevil.example'))).toBe('/optimization');
  });

  it('/settings → /settings/general', () => {
    const route = appRoutes.find((r) => r.path === '/settings')!;
    expect(resolveAccess(route, makeUser(), at('/settings'))).toBe('/settings/general');
  });

  it.each(['/optimization', '/oauth_v2', '/optimization/:accountId'])('%s renders for a user without accounts', (path) => {
    const route = appRoutes.find((r) => r.path === path)!;
    expect(resolveAccess(route, makeUser(), at(path), false, false)).toBeNull();
  });

  const limited = SPEC_TABLE.filter((r) => r.roles);
  const cases = limited.flatMap((row) => ROLES.map((role) => [row.path, role, row] as const));
  it.each(cases)('%s as %s follows the role limit', (path, role, row) => {
    const expected = row.roles!.includes(role) ? null : '/restricted';
    expect(resolveAccess(routeOf(row), withAccount(role), at(path))).toBe(expected);
  });

  it.each(SPEC_TABLE.filter((r) => r.needsAccount).map((r) => [r.path, r] as const))(
    '%s without a connected account → the API connection screen',
    (path, row) => {
      expect(NEEDS_ACCOUNT_PATH).toBe('/oauth_v2');
      expect(resolveAccess(routeOf(row), userWithRole('owner'), at(path), false, false)).toBe(NEEDS_ACCOUNT_PATH);
      expect(resolveAccess(routeOf(row), withAccount('owner'), at(path), false, true)).toBeNull();
    },
  );

  it('a reader on a writer route → /restricted', () => {
    const row = SPEC_TABLE.find((r) => r.path === '/auto-rules')!;
    expect(resolveAccess(routeOf(row), withAccount('reader'), at('/auto-rules'))).toBe('/restricted');
  });
});

describe('a session that ends on a protected page', () => {
  it('goes to the login screen itself', () => {
    const route = appRoutes.find((r) => r.path === '/settings/general')!;
    expect(resolveAccess(route, null, at('/settings/general'), true)).toBe('/login');
  });
});
