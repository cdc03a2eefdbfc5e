/**
 * Snackbars (docs/product.md#9-timings-and-sizes): 3000 ms by default, 6000 ms for oauth, trial and
 * purchase messages.
 */
import { notifications } from '@mantine/notifications';

export const SNACKBAR_MS = 3000;
export const LONG_SNACKBAR_MS = 6000;

type Tone = 'success' | 'danger' | 'info';
const COLORS: Record<Tone, string> = { success: 'green', danger: 'red', info: 'blue' };

export function showSnackbar(message: string, tone: Tone = 'success', autoClose = SNACKBAR_MS) {
  notifications.show({ message, color: COLORS[tone], autoClose });
}

/** For oauth, trial and purchase messages. */
export function showLongSnackbar(message: string, tone: Tone = 'success') {
  showSnackbar(message, tone, LONG_SNACKBAR_MS);
}
