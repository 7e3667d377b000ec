import { Prisma, type Workspace } from "@prisma/client";
import { db } from "../db";
import type { Actor } from "../auth/actor";
import { audit } from "../audit";
import { findWorkspace, orgAccess, workspaceLevel, atLeast, type AccessLevel, type OrgAccess } from "../authz";
import { forbidden, notFound } from "../http/errors";
import { checkName } from "../names";

/** The workspace a state request addresses; `workspace` is null when it is yet to be created. */
export type StateTarget = { access: OrgAccess; workspace: Workspace | null; name: string };

/**
 * Resolves the workspace of a state request and checks the actor's level on it. A workspace
 * that does not exist is created on first use (as GitLab does) when the actor may create
 * workspaces in the organization; otherwise it is a 404, like one the actor cannot see.
 */
export async function findStateWorkspace(actor: Actor, orgName: string, wsName: string, need: AccessLevel): Promise<StateTarget> {
  checkName("organization", orgName);
  checkName("workspace", wsName);
  const access = await orgAccess(actor, orgName);
  const missing = () => notFound(`Workspace "${wsName}" not found in organization "${orgName}"`);
  const workspace = await findWorkspace(access.org.id, wsName);
  if (!workspace) {
    if (!access.manageWorkspaces) throw missing();
    return { access, workspace: null, name: wsName };
  }
  const level = await workspaceLevel(actor, access, workspace.id);
  if (!level) throw missing();
  if (!atLeast(level, need)) throw forbidden(`This needs "${need}" access to workspace "${wsName}"; you have "${level}"`);
  return { access, workspace, name: wsName };
}

/**
 * The target's workspace, created now if needed. Called once the request is known to be valid,
 * so a bad request creates nothing.
 */
export async function ensureStateWorkspace(req: Request, actor: Actor, target: StateTarget): Promise<Workspace> {
  if (target.workspace) return target.workspace;
  const organizationId = target.access.org.id;
  try {
    const workspace = await db().$transaction(async (tx) => {
      const ws = await tx.workspace.create({ data: { organizationId, name: target.name } });
      await audit(
        req,
        actor,
        { organizationId, action: "workspace.create", targetType: "workspace", targetId: ws.id, targetLabel: ws.name, detail: { via: "state" } },
        tx,
      );
      return ws;
    });
    target.workspace = workspace;
    return workspace;
  } catch (e) {
    // Two first requests raced (e.g. two `terraform init`s): the other one created it.
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      const ws = await db().workspace.findUnique({ where: { organizationId_name: { organizationId, name: target.name } } });
      if (ws) return (target.workspace = ws);
    }
    throw e;
  }
}
