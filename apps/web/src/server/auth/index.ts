export { hashPassword, verifyPassword, passwordProblem } from "./password";
export { newSecret, hashSecret } from "./secrets";
export { createToken, findToken, tokenView, TOKEN_PREFIX, type TokenOwner } from "./tokens";
export {
  createSession,
  findSession,
  deleteSession,
  sessionCookies,
  clearedSessionCookies,
  readCookie,
  SESSION_COOKIE,
  CSRF_COOKIE,
  CSRF_HEADER,
} from "./sessions";
export { authenticate, requireActor, requireUser, actorLabel, actorRefs, type Actor } from "./actor";
