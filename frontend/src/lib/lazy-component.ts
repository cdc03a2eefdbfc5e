/**
 * A component whose code is a chunk of its own, with `preload()` to ask for the chunk before
 * it first renders. Once the chunk has arrived the component renders at once; only before
 * that does it suspend (React's `lazy`) and show its boundary's fallback.
 *
 * `lazy` alone suspends on its first render even when the chunk is already in, and React
 * then holds back every boundary's reveal until 300 ms after the last fallback was shown
 * (React 19's FALLBACK_THROTTLE_MS): on the campaign-groups screen the layout's, the header
 * account selector's and the chart's fallbacks cost their 300 ms of an idle main thread
 * before the first paint (issue 42 item 19, docs/benchmarks.md).
 */
import { createElement, lazy, type ComponentType, type FunctionComponent } from 'react';

export type PreloadableComponent<P> = FunctionComponent<P> & {
  /** Asks for the chunk (once); resolves when it has arrived. */
  preload: () => Promise<unknown>;
};

/** `load` resolves with the component; it is called at most once. */
export function lazyComponent<P>(load: () => Promise<ComponentType<P>>, displayName = 'Lazy'): PreloadableComponent<P> {
  let arrived: ComponentType<P> | null = null;
  let chunk: Promise<ComponentType<P>> | undefined;
  const preload = () =>
    (chunk ??= load().then((component) => {
      arrived = component;
      return component;
    }));
  // Rendered only while the chunk is on its way: it resolves after `arrived` is set.
  const Pending = lazy(async () => ({ default: await preload() }));
  // `P` is any component's props, which createElement's overloads cannot take unconstrained.
  const Component: FunctionComponent<P> = (props) => createElement((arrived ?? Pending) as ComponentType<object>, props as object);
  Component.displayName = displayName;
  return Object.assign(Component, { preload });
}
