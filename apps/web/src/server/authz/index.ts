export { ACCESS_LEVELS, atLeast, highest, type AccessLevel } from "./levels";
export { findWorkspace, orgAccess, requireOrgOwner, requireWorkspace, workspaceLevel, type OrgAccess, type WorkspaceAccess } from "./permissions";
