/** The suggester feature's screens, loaded on demand by the route table (one chunk). */
export { SuggesterScreen } from './components/SuggesterScreen';
