import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { StateHistory } from "@/components/states/state-history";

type Params = { org: string; workspace: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `State history · ${decodeParam((await params).workspace)}` };
}

export default async function StatesPage({ params }: { params: Promise<Params> }) {
  const { org, workspace } = await params;
  return <StateHistory org={decodeParam(org)} ws={decodeParam(workspace)} />;
}
