/**
 * The public face of the benchmarks feature (targets per app and country for cost per install,
 * cost per event and ROAS, with published reference figures; docs/api/benchmarks.md). Its
 * screens are in `screens.ts`, loaded lazily; nothing else is shared yet.
 */
export { benchmarksKeys } from './api/keys';
