import { z } from "zod";
import { requireActor, requireUser } from "@/server/auth";
import { json, parseJson, route } from "@/server/http";
import { createOrg, listOrgs } from "@/server/orgs";

export const GET = route(async (req) => {
  const actor = await requireActor(req);
  return json({ data: await listOrgs(actor) });
});

const Body = z.object({ name: z.string() });

/** Any person may start an organization; they become its owner. */
export const POST = route(async (req) => {
  const user = await requireUser(req);
  const { name } = await parseJson(req, Body);
  return json(await createOrg(req, user, name), 201);
});
