import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { StateVersionView } from "@/components/states/state-version";

type Params = { org: string; workspace: string; serial: string };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const p = await params;
  return { title: `#${p.serial} · ${decodeParam(p.workspace)}` };
}

export default async function StateVersionPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<{ address?: string | string[] }> }) {
  const { org, workspace, serial } = await params;
  const { address } = await searchParams;
  if (serial !== "current" && !/^\d{1,15}$/.test(serial)) notFound();
  return <StateVersionView key={serial} org={decodeParam(org)} ws={decodeParam(workspace)} serial={serial} initialAddress={typeof address === "string" ? address : null} />;
}
