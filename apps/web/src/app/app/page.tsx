import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { TopBar } from "@/components/top-bar";
import { CreateOrgForm } from "@/components/orgs/create-org";
import { pageOrgs, requirePageUser } from "@/server/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Organizations" };

/** For a person in no organization yet: create one (they become its owner). */
export default async function NoOrgPage() {
  const user = await requirePageUser("/app");
  const orgs = await pageOrgs(user);
  if (orgs.length) redirect(`/app/${encodeURIComponent(orgs[0]!.name)}/workspaces`);
  return (
    <>
      <TopBar user={user} orgs={orgs} />
      <main className="page narrow">
        <h1>Organizations</h1>
        <p className="muted">You are not a member of any organization. Ask an owner to add you, or create one.</p>
        <CreateOrgForm />
      </main>
    </>
  );
}
