import { decodeParam } from "@/lib/params";
import type { ReactNode } from "react";
import { pageOrgs, requirePageUser } from "@/server/auth/page";

/** Organization settings are for owners; the API enforces this too, the page just says so first. */
export default async function OrgSettingsLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
  const { org } = await params;
  const user = await requirePageUser(`/app/${org}/settings/members`);
  const mine = (await pageOrgs(user)).find((o) => o.name === decodeParam(org));
  if (mine?.role !== "owner") {
    return (
      <div className="alert alert-error" role="alert">
        Only owners of this organization can see its settings.
      </div>
    );
  }
  return <>{children}</>;
}
