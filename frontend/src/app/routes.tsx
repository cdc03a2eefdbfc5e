/**
 * The one route table (docs/product.md#2-url-paths-and-access). Screens of later issues join it
 * when they are built; the sidebar shows an entry only once its route renders a screen here.
 * Feature screens are lazy: each feature's `screens.ts` is one chunk, downloaded when a route first
 * needs it.
 */
import { prefetchOrgsScreen } from '@/features/optimization';
import { lazyScreen } from './lazy/lazy-screen';
import { NotFoundPage } from './pages/NotFoundPage';
import { RestrictedPage } from './pages/RestrictedPage';
import type { AppRoute } from './route-types';

const authScreens = () => import('@/features/auth/screens');
const usersScreens = () => import('@/features/users/screens');
const accountsScreens = () => import('@/features/accounts/screens');
const optimizationScreens = () => import('@/features/optimization/screens');
const suggesterScreens = () => import('@/features/suggester/screens');
const rulesScreens = () => import('@/features/rules/screens');
const activityScreens = () => import('@/features/activity/screens');
const plansScreens = () => import('@/features/plans/screens');
const teamScreens = () => import('@/features/team/screens');
const attributionScreens = () => import('@/features/attribution/screens');
const benchmarksScreens = () => import('@/features/benchmarks/screens');

const AuthScreen = lazyScreen(authScreens, 'AuthScreen');
const PasswordScreen = lazyScreen(authScreens, 'PasswordScreen');
const GeneralSettings = lazyScreen(usersScreens, 'GeneralSettings');
const ConnectScreen = lazyScreen(accountsScreens, 'ConnectScreen');
const OptimizationHome = lazyScreen(accountsScreens, 'OptimizationHome');
const DrillScreen = lazyScreen(optimizationScreens, 'DrillScreen');
const AllAccountsScreen = lazyScreen(optimizationScreens, 'AllAccountsScreen');
const OrgsScreen = lazyScreen(optimizationScreens, 'OrgsScreen');
const SuggesterScreen = lazyScreen(suggesterScreens, 'SuggesterScreen');
const RulesScreen = lazyScreen(rulesScreens, 'RulesScreen');
const RuleEditor = lazyScreen(rulesScreens, 'RuleEditor');
const RunHistory = lazyScreen(rulesScreens, 'RunHistory');
const ActivityScreen = lazyScreen(activityScreens, 'ActivityScreen');
const SubscriptionSettings = lazyScreen(plansScreens, 'SubscriptionSettings');
const TeamScreen = lazyScreen(teamScreens, 'TeamScreen');
const AcceptInviteScreen = lazyScreen(teamScreens, 'AcceptInviteScreen');
const IntegrationsScreen = lazyScreen(attributionScreens, 'IntegrationsScreen');
const IntegrationScreen = lazyScreen(attributionScreens, 'IntegrationScreen');
const BenchmarksScreen = lazyScreen(benchmarksScreens, 'BenchmarksScreen');
const BenchmarkAppScreen = lazyScreen(benchmarksScreens, 'BenchmarkAppScreen');

export const appRoutes: readonly AppRoute[] = [
  { path: '/', title: 'app.name', access: 'any', redirect: { signedIn: '/optimization', anonymous: '/login' } },
  { path: '/login', title: 'title.login', access: 'public', hideLayout: true, redirect: { signedIn: '/optimization' }, element: <AuthScreen mode="login" /> },
  { path: '/register', title: 'title.register', access: 'public', hideLayout: true, redirect: { signedIn: '/optimization' }, element: <AuthScreen mode="register" /> },
  { path: '/reset', title: 'title.reset', access: 'public', hideLayout: true, element: <PasswordScreen entry="reset" /> },
  { path: '/change', title: 'title.change', access: 'public', hideLayout: true, element: <PasswordScreen entry="change" /> },
  // The API connection screen, and where the connect popup returns
  // (docs/product.md#2-url-paths-and-access).
  { path: '/oauth_v2', title: 'title.connect', access: 'signedIn', disableMenu: true, element: <ConnectScreen /> },
  // Ads Optimization: to the deepest level the active account and org allow.
  { path: '/optimization', title: 'title.optimization', access: 'signedIn', element: <OptimizationHome /> },
  // optimization_accounts (All accounts), then optimization_orgs: the levels ACCOUNTS and ORGS.
  { path: '/optimization/accounts', title: 'title.optimization', access: 'signedIn', element: <AllAccountsScreen /> },
  { path: '/optimization/:accountId', title: 'title.orgs', access: 'signedIn', element: <OrgsScreen />, prefetch: prefetchOrgsScreen },
  // The drill-down (docs/product.md#2-url-paths-and-access): campaigns, then
  // campaign-id-{id}/{tab}, then campaign-id-{id}/ad-group-id-{id}/{tab}; the screen reads the
  // segments (paths.ts).
  { path: '/optimization/:accountId/:orgId', title: 'title.optimization', access: 'signedIn', element: <DrillScreen /> },
  { path: '/optimization/:accountId/:orgId/:campaign/:tab', title: 'title.optimization', access: 'signedIn', element: <DrillScreen /> },
  { path: '/optimization/:accountId/:orgId/:campaign/:adGroup/:tab', title: 'title.optimization', access: 'signedIn', element: <DrillScreen /> },
  // The keyword suggester (docs/product.md#2-keyword-suggester,
  // docs/product.md#6-roles-and-route-limits): editors only, with a connected account.
  { path: '/keyword-suggester', title: 'title.keywordSuggester', access: 'signedIn', roles: ['owner', 'admin', 'writer'], needsAccount: true, element: <SuggesterScreen /> },
  // Automated rules (docs/product.md#2-url-paths-and-access,
  // docs/product.md#6-roles-and-route-limits): editors only; the list, the create / edit form and a
  // rule's run history (in the header's campaign group).
  { path: '/auto-rules', title: 'title.autoRules', access: 'signedIn', roles: ['owner', 'admin', 'writer'], element: <RulesScreen /> },
  { path: '/auto-rules/new', title: 'title.autoRules', access: 'signedIn', roles: ['owner', 'admin', 'writer'], element: <RuleEditor /> },
  { path: '/auto-rules/:ruleId/edit', title: 'title.autoRules', access: 'signedIn', roles: ['owner', 'admin', 'writer'], element: <RuleEditor /> },
  { path: '/auto-rules/:ruleId/runs', title: 'title.autoRules', access: 'signedIn', roles: ['owner', 'admin', 'writer'], element: <RunHistory /> },
  // The activity log (docs/product.md#2-activity-log,
  // docs/product.md#4-sign-in-account-and-session): every member, with a connected account.
  { path: '/activity-log', title: 'title.activityLog', access: 'signedIn', needsAccount: true, element: <ActivityScreen /> },
  { path: '/settings', title: 'title.settings', access: 'signedIn', redirect: { signedIn: '/settings/general' } },
  { path: '/settings/general', title: 'title.settings', access: 'signedIn', element: <GeneralSettings /> },
  // Settings › Subscription (docs/product.md#2-url-paths-and-access,
  // docs/product.md#6-roles-and-route-limits): owner and admin.
  { path: '/settings/subscription', title: 'title.settings', access: 'signedIn', roles: ['owner', 'admin'], element: <SubscriptionSettings /> },
  { path: '/settings/password', title: 'title.settingsPassword', access: 'signedIn', element: <PasswordScreen entry="settings" /> },
  // Settings › Team (docs/product.md#2-url-paths-and-access,
  // docs/product.md#6-roles-and-route-limits): owners and admins.
  { path: '/settings/team', title: 'title.settingsTeam', access: 'signedIn', roles: ['owner', 'admin'], element: <TeamScreen /> },
  // Settings › Integrations and a provider's page (docs/product.md#2-url-paths-and-access,
  // docs/api/attribution.md): every role opens them; the writes are for owners, admins and
  // writers (the screens disable them for readers, the server answers them 403).
  { path: '/settings/integrations', title: 'title.settingsIntegrations', access: 'signedIn', element: <IntegrationsScreen /> },
  { path: '/settings/integration', title: 'title.settingsIntegration', access: 'signedIn', element: <IntegrationScreen /> },
  // Settings › Benchmarks and an app's targets (docs/product.md#2-url-paths-and-access,
  // docs/api/benchmarks.md): every role opens them; saving is for owners, admins and writers
  // (readers see the targets read-only, the server answers their writes 403).
  { path: '/settings/benchmarks', title: 'title.settingsBenchmarks', access: 'signedIn', element: <BenchmarksScreen /> },
  { path: '/settings/benchmarks/app', title: 'title.settingsBenchmarksApp', access: 'signedIn', element: <BenchmarkAppScreen /> },
  // The invitation email's link (docs/api/team.md): accepts signed in, else leads through
  // login or register and back.
  { path: '/invite', title: 'title.invite', access: 'any', hideLayout: true, element: <AcceptInviteScreen /> },
  { path: '/restricted', title: 'title.restricted', access: 'any', element: <RestrictedPage /> },
  { path: '*', title: 'title.notFound', access: 'any', hideLayout: true, element: <NotFoundPage /> },
];
