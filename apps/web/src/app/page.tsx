import { redirect } from "next/navigation";
import { pageOrgs, requirePageUser } from "@/server/auth/page";

export const dynamic = "force-dynamic";

/** `/`: the first organization's workspaces, or /setup, /login, or /app when in no organization. */
export default async function Home() {
  const user = await requirePageUser();
  const orgs = await pageOrgs(user);
  redirect(orgs.length ? `/app/${encodeURIComponent(orgs[0]!.name)}/workspaces` : "/app");
}
