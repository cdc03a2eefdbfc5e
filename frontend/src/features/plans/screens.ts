/** The plans feature's screens, loaded on demand by the route table (one chunk). */
export { SubscriptionSettings } from './components/SubscriptionSettings';
