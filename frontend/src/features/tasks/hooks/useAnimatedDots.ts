/**
 * '', '.', '..', '...' in turn every 500 ms while `active` (docs/product.md#9-timings-and-sizes
 * task dots).
 */
import { useEffect, useState } from 'react';

export const DOTS_INTERVAL_MS = 500;
const FRAMES = ['', '.', '..', '...'] as const;

export function useAnimatedDots(active: boolean): string {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), DOTS_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [active]);
  return active ? (FRAMES[frame] ?? '') : '';
}
