import { z } from "zod";
import { requireActor } from "@/server/auth";
import { orgAccess, requireOrgOwner } from "@/server/authz";
import { json, parseJson, route } from "@/server/http";
import { addMember, listMembers } from "@/server/members";
import { emailSchema, personNameSchema } from "@/server/orgs";

export const GET = route<{ org: string }>(async (req, { org }) => {
  const access = await orgAccess(await requireActor(req), org);
  return json({ data: await listMembers(access.org.id) });
});

const Body = z.object({
  email: emailSchema,
  name: personNameSchema.optional(),
  password: z.string().optional(),
  role: z.enum(["owner", "member"]).default("member"),
});

export const POST = route<{ org: string }>(async (req, { org }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const body = await parseJson(req, Body);
  return json(await addMember(req, actor, access, body), 201);
});
