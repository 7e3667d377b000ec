// Organizations: listing and creating them, plus the small shared pieces of the accounts API
// (list paging, email/name fields, the organization row lock). Members, teams, tokens and
// workspaces live in their own modules beside this one.
export { listOrgs, orgView, createOrg, type OrgRoleView } from "./orgs";
export { pageFields, pageWindow, paged, type Page } from "./paging";
export { emailSchema, personNameSchema, isUuid, uuidSchema, isUniqueViolation } from "./fields";
export { lockOrganization } from "./locks";
