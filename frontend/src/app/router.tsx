/** Turns the route table into react-router objects under the app frame. */
import type { RouteObject } from 'react-router';
import { AppFrame } from './AppFrame';
import { ScreenError } from './lazy/ScreenError';
import { appRoutes } from './routes';
import type { AppRoute } from './route-types';

/**
 * Each screen has its own error element, so a screen that fails (a chunk that did not load)
 * shows its message inside the layout; the frame's own catches failures of the frame.
 */
export function toRouteObjects(routes: readonly AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      element: <AppFrame />,
      errorElement: <ScreenError />,
      children: routes.map((route) => ({
        path: route.path,
        element: route.element ?? null,
        errorElement: <ScreenError />,
        handle: route,
      })),
    },
  ];
}
