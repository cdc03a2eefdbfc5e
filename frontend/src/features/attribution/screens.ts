/** The attribution feature's screens, loaded on demand by the route table (one chunk). */
export { IntegrationScreen } from './components/IntegrationScreen';
export { IntegrationsScreen } from './components/IntegrationsScreen';
