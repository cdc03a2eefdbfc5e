/**
 * The one route table (spec §2). Screens of later issues join it when they are built; the
 * sidebar shows an entry only once its route renders a screen here. Feature screens are
 * lazy: each feature's `screens.ts` is one chunk, downloaded when a route first needs it.
 */
import { lazyScreen } from './lazy/lazy-screen';
import { NotFoundPage } from './pages/NotFoundPage';
import { RestrictedPage } from './pages/RestrictedPage';
import type { AppRoute } from './route-types';

const authScreens = () => import('@/features/auth/screens');
const usersScreens = () => import('@/features/users/screens');

const AuthScreen = lazyScreen(authScreens, 'AuthScreen');
const PasswordScreen = lazyScreen(authScreens, 'PasswordScreen');
const GeneralSettings = lazyScreen(usersScreens, 'GeneralSettings');

export const appRoutes: readonly AppRoute[] = [
  { path: '/', title: 'app.name', access: 'any', redirect: { signedIn: '/optimization', anonymous: '/login' } },
  { path: '/login', title: 'title.login', access: 'public', hideLayout: true, redirect: { signedIn: '/optimization' }, element: <AuthScreen mode="login" /> },
  { path: '/register', title: 'title.register', access: 'public', hideLayout: true, redirect: { signedIn: '/optimization' }, element: <AuthScreen mode="register" /> },
  { path: '/reset', title: 'title.reset', access: 'public', hideLayout: true, element: <PasswordScreen entry="reset" /> },
  { path: '/change', title: 'title.change', access: 'public', hideLayout: true, element: <PasswordScreen entry="change" /> },
  // The reports issue replaces this redirect with the optimization drill-down screen.
  { path: '/optimization', title: 'title.optimization', access: 'signedIn', redirect: { signedIn: '/settings/general' } },
  { path: '/settings', title: 'title.settings', access: 'signedIn', redirect: { signedIn: '/settings/general' } },
  { path: '/settings/general', title: 'title.settings', access: 'signedIn', element: <GeneralSettings /> },
  { path: '/settings/password', title: 'title.settingsPassword', access: 'signedIn', element: <PasswordScreen entry="settings" /> },
  { path: '/restricted', title: 'title.restricted', access: 'any', element: <RestrictedPage /> },
  { path: '*', title: 'title.notFound', access: 'any', hideLayout: true, element: <NotFoundPage /> },
];
