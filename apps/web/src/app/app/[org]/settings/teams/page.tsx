import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { Teams } from "@/components/settings/teams";

export const metadata: Metadata = { title: "Teams" };

export default async function TeamsPage({ params }: { params: Promise<{ org: string }> }) {
  return <Teams org={decodeParam((await params).org)} />;
}
