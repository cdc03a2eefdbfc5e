/** The benchmarks feature's screens, loaded on demand by the route table (one chunk). */
export { BenchmarkAppScreen } from './components/BenchmarkAppScreen';
export { BenchmarksScreen } from './components/BenchmarksScreen';
