// API tokens as people manage them (personal and team tokens: create, list, revoke). Hashing
// and authentication live in server/auth.
export { listUserTokens, listTeamTokens, createUserToken, createTeamToken, revokeUserToken, revokeTeamToken, TokenBody } from "./tokens";
