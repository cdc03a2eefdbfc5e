/** Turns the route table into react-router objects under the app frame. */
import type { RouteObject } from 'react-router';
import { AppFrame } from './AppFrame';
import { appRoutes } from './routes';
import type { AppRoute } from './route-types';

export function toRouteObjects(routes: readonly AppRoute[] = appRoutes): RouteObject[] {
  return [
    {
      element: <AppFrame />,
      children: routes.map((route) => ({ path: route.path, element: route.element ?? null, handle: route })),
    },
  ];
}
