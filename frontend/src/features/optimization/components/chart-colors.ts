/** The chart's series colours (left axis, right axis): the theme's blue and orange. */
export const CHART_COLORS = ['#228be6', '#fd7e14'] as const;

/** Further lines of an axis split by currency: the theme's teal, violet, grape, lime, pink, cyan. */
export const SPLIT_COLORS = ['#12b886', '#7950f2', '#be4bdb', '#82c91e', '#e64980', '#15aabf'] as const;
