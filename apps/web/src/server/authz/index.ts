export { ACCESS_LEVELS, atLeast, highest, type AccessLevel } from "./levels";
export { orgAccess, requireOrgOwner, requireWorkspace, workspaceLevel, type OrgAccess, type WorkspaceAccess } from "./permissions";
