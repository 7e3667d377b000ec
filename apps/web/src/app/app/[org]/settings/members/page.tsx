import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { Members } from "@/components/settings/members";

export const metadata: Metadata = { title: "Members" };

export default async function MembersPage({ params }: { params: Promise<{ org: string }> }) {
  return <Members org={decodeParam((await params).org)} />;
}
