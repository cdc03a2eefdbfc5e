/**
 * The accounts feature's screens and the header's account selector, loaded on demand by the
 * route table and the layout (one chunk).
 */
export { AccountSelector } from './components/AccountSelector';
export { ConnectScreen } from './components/ConnectScreen';
export { OptimizationHome } from './components/OptimizationHome';
