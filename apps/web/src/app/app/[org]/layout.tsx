import { decodeParam } from "@/lib/params";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { OrgNav, TopBar } from "@/components/top-bar";
import { pageOrgs, requirePageUser } from "@/server/auth/page";

export const dynamic = "force-dynamic";

/** Every organization page: the top bar, the organization's tabs; 404 for non-members. */
export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
  const { org } = await params;
  const name = decodeParam(org);
  const user = await requirePageUser(`/app/${org}/workspaces`);
  const orgs = await pageOrgs(user);
  const mine = orgs.find((o) => o.name === name);
  if (!mine) notFound();
  return (
    <>
      <TopBar user={user} orgs={orgs} current={name} />
      <OrgNav org={name} isOwner={mine.role === "owner"} />
      <main className="page">{children}</main>
    </>
  );
}
