/** The chart's series colours (left axis, right axis): the theme's blue and orange. */
export const CHART_COLORS = ['#228be6', '#fd7e14'] as const;
