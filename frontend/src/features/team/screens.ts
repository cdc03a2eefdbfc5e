/** The team feature's screens, loaded on demand by the route table (one chunk). */
export { AcceptInviteScreen } from './components/AcceptInviteScreen';
export { TeamScreen } from './components/TeamScreen';
