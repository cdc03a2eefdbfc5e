/**
 * The chart itself (uPlot) is a chunk of its own, drawn without suspending once it is in:
 * asked when the chart panel mounts, or earlier by the campaign-groups route's prefetch
 * (../prefetch), beside its points.
 */
import { lazyComponent } from '@/lib/lazy-component';

export const ReportChart = lazyComponent(() => import('./ReportChart').then((chunk) => chunk.default), 'ReportChart');
