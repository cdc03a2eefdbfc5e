/**
 * The public face of the team feature (members, invitations, workspaces) for the app shell:
 * the header's workspace switcher. Its screens (Settings › Team, the invitation link) are in
 * `screens.ts`, loaded lazily.
 */
export { WorkspaceSwitcher } from './components/WorkspaceSwitcher';
export { useWorkspaces, type Workspace } from './api/workspaces';
export { WorkspaceNameCard } from './components/WorkspaceNameCard';
