/**
 * Screens load on demand, one script chunk per feature (`features/<area>/screens.ts`), so
 * the first page downloads only the app shell and its own screen. A chunk that fails to
 * download, or has not arrived after 120 s (docs/product.md#8-internal-errors), raises a
 * `ChunkLoadError`, which the route's error element turns into a "reload the page" message.
 */
import type { ComponentType } from 'react';
import { lazyComponent, type PreloadableComponent } from '@/lib/lazy-component';

export const CHUNK_TIMEOUT_MS = 120_000;

export class ChunkLoadError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

/** `load()`, or a `ChunkLoadError` when it fails or takes longer than `timeoutMs`. */
export function loadChunk<M>(load: () => Promise<M>, timeoutMs = CHUNK_TIMEOUT_MS): Promise<M> {
  return new Promise<M>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ChunkLoadError(`A script chunk did not load within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('A script chunk failed to load', { cause }));
      },
    );
  });
}

/** The names of a module's exports that are components. */
type ScreenName<M> = { [K in keyof M]: M[K] extends ComponentType<never> ? K : never }[keyof M];
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;

/**
 * A lazy screen, plus `preload()` to start its download before it first renders; once the
 * chunk is in, it renders without suspending (`lazyComponent`).
 */
export type LazyScreen<P> = PreloadableComponent<P>;

/**
 * A component that renders the `name` export of the chunk `load` imports, suspending until
 * it has arrived: `lazyScreen(() => import('@/features/auth/screens'), 'AuthScreen')`.
 */
export function lazyScreen<M, K extends ScreenName<M>>(load: () => Promise<M>, name: K): LazyScreen<PropsOf<M[K]>> {
  return lazyComponent(
    // `K` names a component export (ScreenName), which TypeScript cannot carry into `M[K]`.
    () => loadChunk(load).then((screens) => screens[name] as ComponentType<PropsOf<M[K]>>),
    String(name),
  );
}

export function isChunkLoadError(error: unknown): error is ChunkLoadError {
  return error instanceof ChunkLoadError;
}
