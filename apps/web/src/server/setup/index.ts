// Getting in: first-start setup (the setup page and the env bootstrap) and password sign-in.
export { needsSetup, createFirstAdmin, bootstrapFromEnv, type FirstAdmin } from "./first-admin";
export { login } from "./login";
export { LoginLimiter } from "./login-limiter";
export { userView, withSession } from "./session-response";
export { refuseCrossSite } from "./same-origin";
