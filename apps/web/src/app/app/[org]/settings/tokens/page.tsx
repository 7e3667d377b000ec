import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { TeamTokens } from "@/components/settings/team-tokens";

export const metadata: Metadata = { title: "Team tokens" };

export default async function TeamTokensPage({ params }: { params: Promise<{ org: string }> }) {
  return <TeamTokens org={decodeParam((await params).org)} />;
}
