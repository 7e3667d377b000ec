import { z } from "zod";
import { audit } from "@/server/audit";
import { createSession } from "@/server/auth";
import { clientIp, conflict, json, parseJson, route } from "@/server/http";
import { emailSchema, personNameSchema } from "@/server/orgs";
import { createFirstAdmin, needsSetup, userView, withSession, refuseCrossSite } from "@/server/setup";

export const GET = route(async () => json({ needed: await needsSetup() }));

const Body = z.object({
  email: emailSchema,
  name: personNameSchema,
  password: z.string(),
  organization: z.string(),
});

/** First start: creates the first admin and organization, then signs the admin in. */
export const POST = route(async (req) => {
  refuseCrossSite(req);
  if (!(await needsSetup())) throw conflict("Terrace is already set up", "Sign in instead.");
  const body = await parseJson(req, Body);
  const { user, org } = await createFirstAdmin(body);
  const actor = { label: user.email, userId: user.id };
  await audit(req, actor, { organizationId: org.id, action: "org.create", targetType: "organization", targetId: org.id, targetLabel: org.name, detail: { setup: true } });
  const session = await createSession(user.id, clientIp(req), req.headers.get("user-agent"));
  await audit(req, actor, { organizationId: org.id, action: "auth.login", targetType: "user", targetId: user.id, targetLabel: user.email });
  return withSession(req, { user: userView(user), organization: { name: org.name } }, 201, session);
});
