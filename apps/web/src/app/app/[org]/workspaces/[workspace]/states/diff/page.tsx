import { decodeParam } from "@/lib/params";
import type { Metadata } from "next";
import { StateDiffView } from "@/components/states/state-diff";

type Params = { org: string; workspace: string };
type Search = { from?: string | string[]; to?: string | string[] };

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  return { title: `Diff · ${decodeParam((await params).workspace)}` };
}

function serial(v: string | string[] | undefined): number | null {
  return typeof v === "string" && /^\d{1,15}$/.test(v) ? Number(v) : null;
}

export default async function StateDiffPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<Search> }) {
  const { org, workspace } = await params;
  const q = await searchParams;
  const from = serial(q.from);
  const to = serial(q.to);
  if (from === null || to === null) {
    return (
      <div className="alert alert-error" role="alert">
        Choose two versions to compare: the address needs <code>?from=&lt;serial&gt;&amp;to=&lt;serial&gt;</code>.
      </div>
    );
  }
  return <StateDiffView key={`${from}-${to}`} org={decodeParam(org)} ws={decodeParam(workspace)} from={from} to={to} />;
}
