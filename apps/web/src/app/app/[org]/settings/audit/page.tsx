import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { AuditLog } from "@/components/settings/audit-log";

export const metadata: Metadata = { title: "Audit log" };

export default async function AuditPage({ params }: { params: Promise<{ org: string }> }) {
  return <AuditLog org={decodeParam((await params).org)} />;
}
