/**
 * The ten tag colours of docs/product.md#2-other-ui (Green, Purple, Yellow, Orange, Pink, Indigo,
 * Magenta, Cyan, Blue, Red), each drawn with a background and a text colour: the light variant of a
 * theme colour (Mantine's `--mantine-color-<c>-light` and `-light-color`, which keep the
 * text readable on its background in both colour schemes).
 */
import type { CSSProperties } from 'react';

/** The colours as the server spells them, in the spec's order. */
export const TAG_COLORS = ['Green', 'Purple', 'Yellow', 'Orange', 'Pink', 'Indigo', 'Magenta', 'Cyan', 'Blue', 'Red'] as const;
export type TagColor = (typeof TAG_COLORS)[number];

const THEME: Record<string, string> = {
  green: 'green',
  purple: 'violet',
  yellow: 'yellow',
  orange: 'orange',
  pink: 'pink',
  indigo: 'indigo',
  magenta: 'grape',
  cyan: 'cyan',
  blue: 'blue',
  red: 'red',
};

const styles = new Map<string, CSSProperties>();

/** The badge style (background and text colour) of a tag colour; gray for an unknown one. */
export function tagStyle(color: string): CSSProperties {
  const theme = THEME[color.toLowerCase()] ?? 'gray';
  let style = styles.get(theme);
  if (!style) {
    style = { '--badge-bg': `var(--mantine-color-${theme}-light)`, '--badge-color': `var(--mantine-color-${theme}-light-color)` } as CSSProperties;
    styles.set(theme, style);
  }
  return style;
}

/** A colour swatch's fill (the theme colour itself, so the ten are told apart at a glance). */
export function swatchColor(color: string): string {
  return `var(--mantine-color-${THEME[color.toLowerCase()] ?? 'gray'}-6)`;
}
