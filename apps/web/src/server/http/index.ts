export { ApiError, badRequest, unauthorized, forbidden, notFound, conflict } from "./errors";
export { json, noContent, errorResponse } from "./respond";
export { route, parseJson, parseQuery, formatZod } from "./route";
export { readBody } from "./body";
export { clientIp } from "./client-ip";
