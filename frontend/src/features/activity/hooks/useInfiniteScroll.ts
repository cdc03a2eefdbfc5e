/**
 * Loads the next page when the window is scrolled within 200 px of the bottom, looked at
 * 100 ms after scrolling stops (docs/product.md#4-notifications,
 * docs/product.md#9-tables-and-notifications). Listens only while there is a next page and it is
 * not already loading.
 */
import { useEffect, useRef } from 'react';
import { nearBottom, SCROLL_DEBOUNCE_MS } from '../scroll';

export function useInfiniteScroll(loadMore: () => void, enabled: boolean) {
  const load = useRef(loadMore);
  useEffect(() => {
    load.current = loadMore;
  });
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      if (nearBottom(window.scrollY, window.innerHeight, document.documentElement.scrollHeight)) load.current();
    };
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(check, SCROLL_DEBOUNCE_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.removeEventListener('scroll', onScroll);
      clearTimeout(timer);
    };
  }, [enabled]);
}
