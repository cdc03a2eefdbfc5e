/**
 * Infinite scroll (docs/product.md#4-notifications, docs/product.md#9-tables-and-notifications):
 * the next page loads once the page is scrolled within 200 px of its bottom, looked at 100 ms after
 * scrolling stops.
 */

/** How close to the bottom (px) the next page starts loading. */
export const NEXT_PAGE_WITHIN_PX = 200;
/** The scroll debounce (ms). */
export const SCROLL_DEBOUNCE_MS = 100;

/** Whether a view scrolled to `scrollTop`, `viewHeight` tall, over `contentHeight` is near its end. */
export function nearBottom(scrollTop: number, viewHeight: number, contentHeight: number, within = NEXT_PAGE_WITHIN_PX): boolean {
  return contentHeight - (scrollTop + viewHeight) <= within;
}
