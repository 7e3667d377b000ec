import { requireUser } from "@/server/auth";
import { json, parseJson, route } from "@/server/http";
import { createUserToken, listUserTokens, TokenBody } from "@/server/tokens";

export const GET = route(async (req) => {
  const user = await requireUser(req);
  return json({ data: await listUserTokens(user.userId) });
});

/** A new personal token: the secret is in this answer only. */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  const body = await parseJson(req, TokenBody);
  return json(await createUserToken(req, user, body.description, body.expiresInDays), 201);
});
