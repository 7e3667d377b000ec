import { z } from "zod";
import { requireActor } from "@/server/auth";
import { orgAccess, requireOrgOwner } from "@/server/authz";
import { json, noContent, parseJson, route } from "@/server/http";
import { removeMember, updateMemberRole } from "@/server/members";

type Params = { org: string; userId: string };

const Body = z.object({ role: z.enum(["owner", "member"]) });

export const PATCH = route<Params>(async (req, { org, userId }) => {
  const actor = await requireActor(req);
  const access = await requireOrgOwner(actor, org);
  const { role } = await parseJson(req, Body);
  return json(await updateMemberRole(req, actor, access, userId, role));
});

/** Owners remove members; any member may remove themselves (leave). */
export const DELETE = route<Params>(async (req, { org, userId }) => {
  const actor = await requireActor(req);
  await removeMember(req, actor, await orgAccess(actor, org), userId);
  return noContent();
});
