// Workspaces: list (only what the caller can read), create, rename, delete, and team grants.
// State itself (versions, locks) belongs to server/state and server/state-view.
export { listWorkspaces, getWorkspace, createWorkspace, updateWorkspace, deleteWorkspace } from "./workspaces";
export { listAccess, setAccess, removeAccess } from "./access";
export { lockView } from "./lock-view";
