import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { WorkspaceList } from "@/components/workspaces/workspace-list";

export const metadata: Metadata = { title: "Workspaces" };

export default async function WorkspacesPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  return <WorkspaceList org={decodeParam(org)} />;
}
