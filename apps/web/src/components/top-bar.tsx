"use client";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { api } from "@/lib/api";

type OrgChoice = { name: string; role: "owner" | "member" };

/** The bar on every signed-in page: brand, organization switcher, the user's menu and sign-out. */
export function TopBar({ user, orgs, current }: { user: { email: string; name: string }; orgs: OrgChoice[]; current?: string }) {
  const router = useRouter();
  const [signingOut, setSigningOut] = useState(false);
  async function signOut() {
    setSigningOut(true);
    try {
      await api("/auth/logout", { method: "POST" });
    } finally {
      window.location.assign("/login");
    }
  }
  return (
    <header className="topbar">
      <Link href="/" className="brand" aria-label="Terrace home">
        {/* A plain <img>: the logo is a tiny static SVG from public/, nothing for next/image to optimise. */}
        {/* eslint-disable-next-line @next/next/no-img-element */}
        <img className="brand-mark" src="/terrace-logo.svg" alt="" width={20} height={20} /> Terrace
      </Link>
      {orgs.length > 0 ? (
        <label className="org-switch">
          <span className="sr-only">Organization</span>
          <select
            aria-label="Organization"
            value={current ?? ""}
            onChange={(e) => e.target.value && router.push(`/app/${encodeURIComponent(e.target.value)}/workspaces`)}
          >
            {current ? null : <option value="">Choose an organization</option>}
            {orgs.map((o) => (
              <option key={o.name} value={o.name}>
                {o.name}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <nav className="topbar-links" aria-label="Account">
        <Link href="/settings/tokens">API tokens</Link>
        <span className="topbar-user" title={user.email}>
          {user.name || user.email}
        </span>
        <button type="button" className="btn btn-small btn-ghost" onClick={signOut} disabled={signingOut}>
          Sign out
        </button>
      </nav>
    </header>
  );
}

/** Tabs of an organization: workspaces for everyone, settings for owners. */
export function OrgNav({ org, isOwner }: { org: string; isOwner: boolean }) {
  const path = usePathname();
  const base = `/app/${encodeURIComponent(org)}`;
  const links: [string, string][] = [[`${base}/workspaces`, "Workspaces"]];
  if (isOwner) {
    links.push([`${base}/settings/members`, "Members"], [`${base}/settings/teams`, "Teams"], [`${base}/settings/tokens`, "Team tokens"], [`${base}/settings/audit`, "Audit log"]);
  }
  return (
    <nav className="subnav" aria-label="Organization">
      {links.map(([href, label]) => (
        <Link key={href} href={href} className={path?.startsWith(href) ? "active" : undefined} aria-current={path?.startsWith(href) ? "page" : undefined}>
          {label}
        </Link>
      ))}
    </nav>
  );
}
