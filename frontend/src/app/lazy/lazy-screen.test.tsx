import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setSessionHint } from '@/features/auth';
import { createQueryClient } from '@/lib/query-client';
import { makeUser } from '@/test/fixtures';
import { fail, mockApiDefault, ok } from '@/test/fetch-mock';
import { renderApp } from '@/test/render';
import { Providers } from '../Providers';
import { toRouteObjects } from '../router';
import type { AppRoute } from '../route-types';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, lazyScreen, loadChunk } from './lazy-screen';

function Hello({ who }: { who: string }) {
  return <p>Hello {who}</p>;
}

describe('loadChunk', () => {
  afterEach(() => jest.useRealTimers());

  it('resolves with the module', async () => {
    await expect(loadChunk(() => Promise.resolve({ Hello }))).resolves.toEqual({ Hello });
  });

  it('turns a failed download into a ChunkLoadError that keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const error = await loadChunk(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as ChunkLoadError).cause).toBe(cause);
  });

  it('gives up after 120 s (spec §8)', async () => {
    jest.useFakeTimers();
    const pending = loadChunk(() => new Promise(() => {}));
    const settled = jest.fn();
    pending.catch(settled);
    await jest.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith(expect.any(ChunkLoadError));
    expect(CHUNK_TIMEOUT_MS).toBe(120_000);
  });
});

describe('lazy screens in the route table', () => {
  const Broken = lazyScreen(() => Promise.reject<{ Hello: typeof Hello }>(new TypeError('Failed to fetch')), 'Hello');
  const Lazy = lazyScreen(() => Promise.resolve({ Hello }), 'Hello');

  function renderRoutes(path: string, routes: AppRoute[], signedIn: boolean) {
    mockApiDefault('GET /api/auth/relogin', signedIn ? ok({ item: makeUser() }) : fail(401, 'Unauthorized'));
    setSessionHint(signedIn);
    mockApiDefault('GET /api/tasks', ok({ items: [] }));
    const router = createMemoryRouter(toRouteObjects(routes), { initialEntries: [path] });
    render(
      <Providers queryClient={createQueryClient()} env="test">
        <RouterProvider router={router} />
      </Providers>,
    );
  }

  it('renders a screen once its chunk arrives', async () => {
    renderRoutes('/hello', [{ path: '/hello', title: 'app.name', access: 'any', element: <Lazy who="Ann" /> }], false);
    expect(await screen.findByText('Hello Ann')).toBeInTheDocument();
  });

  it('downloads a chunk once, whether preloaded or rendered', async () => {
    const load = jest.fn(() => Promise.resolve({ Hello }));
    const Preloaded = lazyScreen(load, 'Hello');
    await Preloaded.preload();
    renderRoutes('/hello', [{ path: '/hello', title: 'app.name', access: 'any', element: <Preloaded who="Bo" /> }], false);
    expect(await screen.findByText('Hello Bo')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks for a reload when a chunk fails, inside the layout', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => {});
    renderRoutes('/broken', [{ path: '/broken', title: 'app.name', access: 'signedIn', element: <Broken who="Ann" /> }], true);
    expect(await screen.findByRole('alert')).toHaveTextContent('The page did not load');
    expect(screen.getByRole('button', { name: 'Reload the page' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
    expect(logged).toHaveBeenCalledWith('React Router caught the following error during render', expect.any(ChunkLoadError));
    logged.mockRestore();
  });

  it('loads the login screen lazily from the real route table', async () => {
    renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
  });
});
