/** The activity log's screen, loaded on demand by the route table (one chunk). */
export { ActivityScreen } from './components/ActivityScreen';
