import { db } from "../db";
import { conflict, badRequest } from "../http/errors";
import { hashPassword, passwordProblem } from "../auth/password";
import { createToken } from "../auth/tokens";
import { hashSecret } from "../auth/secrets";
import { checkName } from "../names";

const SETUP_LOCK = 7_372_237_002;

export async function needsSetup(): Promise<boolean> {
  return (await db().user.count()) === 0;
}

export type FirstAdmin = { email: string; name: string; password: string; organization: string };

/**
 * Creates the first user as owner of a new organization. Refused once any user exists; an advisory
 * lock makes two simultaneous setups end with one admin, not two.
 */
export async function createFirstAdmin(input: FirstAdmin) {
  const problem = passwordProblem(input.password);
  if (problem) throw badRequest(problem);
  checkName("organization", input.organization);
  const passwordHash = await hashPassword(input.password);
  return db().$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`;
    if ((await tx.user.count()) > 0) throw conflict("Terrace is already set up", "Sign in instead.");
    const user = await tx.user.create({ data: { email: input.email.toLowerCase(), name: input.name, passwordHash } });
    const org = await tx.organization.create({ data: { name: input.organization, email: user.email } });
    await tx.organizationMember.create({ data: { organizationId: org.id, userId: user.id, role: "owner" } });
    await tx.team.create({ data: { organizationId: org.id, name: "owners", manageWorkspaces: true, members: { create: { userId: user.id } } } });
    return { user, org };
  });
}

/**
 * TERRACE_ADMIN_EMAIL / _PASSWORD create the first admin in organization `default` when no user
 * exists; TERRACE_ADMIN_TOKEN registers that string as one of the admin's API tokens unless it was
 * registered before (so a revoked one stays revoked across restarts).
 */
export async function bootstrapFromEnv(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const done: string[] = [];
  const email = env.TERRACE_ADMIN_EMAIL?.toLowerCase();
  const password = env.TERRACE_ADMIN_PASSWORD;
  const token = env.TERRACE_ADMIN_TOKEN;
  if (!email) return done;
  if (password && (await needsSetup())) {
    try {
      await createFirstAdmin({ email, name: email.split("@")[0] ?? "admin", password, organization: "default" });
      done.push(`created admin ${email} in organization "default"`);
    } catch (e) {
      done.push(`could not create admin ${email}: ${(e as Error).message}`);
    }
  }
  if (token) {
    if (token.length < 16) {
      done.push("TERRACE_ADMIN_TOKEN ignored: it must be at least 16 characters");
      return done;
    }
    const user = await db().user.findUnique({ where: { email } });
    const known = await db().apiToken.findUnique({ where: { tokenHash: hashSecret(token) } });
    if (user && !known) {
      await createToken({ userId: user.id }, "TERRACE_ADMIN_TOKEN", user.id, token);
      done.push(`registered TERRACE_ADMIN_TOKEN for ${email}`);
    }
  }
  return done;
}
