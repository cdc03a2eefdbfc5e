import { act, renderHook } from '@testing-library/react';
import { DOTS_INTERVAL_MS, useAnimatedDots } from './useAnimatedDots';

describe('useAnimatedDots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('adds a dot every 500 ms while active, then starts over', () => {
    const { result } = renderHook(() => useAnimatedDots(true));
    const frames = [result.current];
    for (let i = 0; i < 4; i += 1) {
      act(() => jest.advanceTimersByTime(DOTS_INTERVAL_MS));
      frames.push(result.current);
    }
    expect(frames).toEqual(['', '.', '..', '...', '']);
  });

  it('shows nothing when inactive', () => {
    const { result } = renderHook(() => useAnimatedDots(false));
    act(() => jest.advanceTimersByTime(DOTS_INTERVAL_MS * 3));
    expect(result.current).toBe('');
  });
});
