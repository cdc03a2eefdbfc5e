/** The users feature's screens, loaded on demand by the route table (one chunk). */
export { GeneralSettings } from './components/GeneralSettings';
