import type { ReactNode } from "react";
import { TopBar } from "@/components/top-bar";
import { pageOrgs, requirePageUser } from "@/server/auth/page";

export const dynamic = "force-dynamic";

/** The signed-in user's own settings. */
export default async function UserSettingsLayout({ children }: { children: ReactNode }) {
  const user = await requirePageUser("/settings/tokens");
  const orgs = await pageOrgs(user);
  return (
    <>
      <TopBar user={user} orgs={orgs} />
      <main className="page narrow">{children}</main>
    </>
  );
}
