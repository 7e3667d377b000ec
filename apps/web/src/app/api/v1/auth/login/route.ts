import { z } from "zod";
import { parseJson, route } from "@/server/http";
import { emailSchema } from "@/server/orgs";
import { login, userView, withSession, refuseCrossSite } from "@/server/setup";

const Body = z.object({ email: emailSchema, password: z.string().max(1024) });

export const POST = route(async (req) => {
  refuseCrossSite(req);
  const { email, password } = await parseJson(req, Body);
  const { user, ...session } = await login(req, email, password);
  return withSession(req, { user: userView(user) }, 200, session);
});
