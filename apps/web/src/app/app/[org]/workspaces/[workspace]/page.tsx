import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { WorkspaceOverview } from "@/components/workspaces/workspace-overview";

type Params = { org: string; workspace: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: decodeParam((await params).workspace) };
}

export default async function WorkspacePage({ params }: { params: Promise<Params> }) {
  const { org, workspace } = await params;
  return <WorkspaceOverview key={workspace} org={decodeParam(org)} ws={decodeParam(workspace)} />;
}
