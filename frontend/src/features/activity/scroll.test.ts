import { nearBottom } from './scroll';

describe('the next page trigger', () => {
  it('fires within 200 px of the bottom and not before', () => {
    // 3000 px of content in a 800 px view: the bottom is at scrollTop 2200.
    expect(nearBottom(1999, 800, 3000)).toBe(false);
    expect(nearBottom(2000, 800, 3000)).toBe(true);
    expect(nearBottom(2200, 800, 3000)).toBe(true);
  });
});
