"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api, wsPath } from "@/lib/api";
import { formatBytes, formatDate } from "@/lib/format";
import type { VersionDetail } from "@/lib/types";
import { Badge, ErrorMessage, Loading, Notice } from "../ui";
import { AttributePanel } from "./attribute-panel";
import { InstanceList } from "./instance-list";
import { OutputsTable } from "./outputs-table";

/** One state version: facts, outputs, modules, and every instance with its attributes on demand. */
export function StateVersionView({ org, ws, serial, initialAddress }: { org: string; ws: string; serial: string; initialAddress: string | null }) {
  const [selected, setSelectedState] = useState<string | null>(initialAddress);
  // The open instance is part of the address (…/states/7?address=…), so it can be linked and shared.
  function setSelected(address: string | null) {
    setSelectedState(address);
    const url = new URL(window.location.href);
    if (address) url.searchParams.set("address", address);
    else url.searchParams.delete("address");
    window.history.replaceState(window.history.state, "", url);
  }
  const [module, setModule] = useState<string | null>(null);
  const v = useQuery({
    queryKey: ["version", org, ws, serial],
    queryFn: () => api<VersionDetail>(`${wsPath(org, ws)}/state-versions/${encodeURIComponent(serial)}`),
    staleTime: serial === "current" ? 5_000 : Infinity,
  });
  const base = `/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`;
  const crumbs = (
    <nav className="crumbs" aria-label="Breadcrumb">
      <Link href={`/app/${encodeURIComponent(org)}/workspaces`}>Workspaces</Link> <span aria-hidden="true">/</span> <Link href={base}>{ws}</Link>{" "}
      <span aria-hidden="true">/</span> <Link href={`${base}/states`}>States</Link> <span aria-hidden="true">/</span> <span>#{serial}</span>
    </nav>
  );
  if (v.isPending)
    return (
      <>
        {crumbs}
        <Loading />
      </>
    );
  if (v.error)
    return (
      <>
        {crumbs}
        <ErrorMessage error={v.error} />
      </>
    );
  const s = v.data.data;
  return (
    <>
      {crumbs}
      <div className="page-head">
        <div>
          <h1>
            State version #{s.serial} {s.current ? <Badge tone="ok">current</Badge> : null} {s.encrypted ? <Badge tone="neutral">encrypted</Badge> : null}
          </h1>
          <p className="muted">
            Written {formatDate(s.createdAt)} by {s.actorLabel} via {s.source}
            {s.rolledBackFromSerial !== null ? ` (rollback to #${s.rolledBackFromSerial})` : ""}
          </p>
        </div>
        <div className="row">
          {s.serial > 1 && !s.encrypted ? (
            <Link className="btn" href={`${base}/states/diff?from=${s.serial - 1}&to=${s.serial}`}>
              Compare with #{s.serial - 1}
            </Link>
          ) : null}
          <a className="btn" href={`/api/v1${wsPath(org, ws)}/state-versions/${s.serial}/raw`} download>
            Download raw state
          </a>
        </div>
      </div>
      {s.encrypted ? (
        <Notice>
          This version was encrypted by the client (OpenTofu state encryption). Terrace stores it exactly as received and knows its serial and
          lineage, but not its resources or outputs: read it with the CLI, which has the key, or download it.
        </Notice>
      ) : null}
      <div className="grid-2">
        <section className="card" aria-labelledby="facts-title">
          <h2 id="facts-title">Version</h2>
          <dl className="facts">
            <dt>Resources</dt>
            <dd>{s.encrypted ? "encrypted" : `${s.resourceCount} (${s.instanceCount} instances)`}</dd>
            <dt>Terraform version</dt>
            <dd>{s.terraformVersion || "—"}</dd>
            <dt>Size</dt>
            <dd>{formatBytes(s.size)}</dd>
            <dt>Lineage</dt>
            <dd className="mono">{s.lineage}</dd>
            <dt>SHA-256</dt>
            <dd className="mono break small">{s.sha256}</dd>
            {s.lockId ? (
              <>
                <dt>Written under lock</dt>
                <dd className="mono small">{s.lockId}</dd>
              </>
            ) : null}
          </dl>
          {s.encrypted ? null : (
            <>
              <h3>Outputs</h3>
              <OutputsTable outputs={v.data.outputs} />
            </>
          )}
        </section>
        {s.encrypted ? null : (
        <section className="card" aria-labelledby="modules-title">
          <h2 id="modules-title">Modules</h2>
          <div className="scroll-box">
          <table className="table compact" aria-label="Modules">
            <thead>
              <tr>
                <th>Module</th>
                <th className="num">Resources</th>
                <th className="num">Instances</th>
              </tr>
            </thead>
            <tbody>
              {v.data.modules.map((m) => (
                <tr key={m.module}>
                  <td className="mono">
                    <button type="button" className="linklike" onClick={() => setModule(m.module)} aria-label={`Show instances of ${m.module === "" ? "the root module" : m.module}`}>
                      {m.module === "" ? "(root)" : m.module}
                    </button>
                  </td>
                  <td className="num">{m.resourceCount}</td>
                  <td className="num">{m.instanceCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
          </div>
        </section>
        )}
      </div>
      {s.encrypted ? null : (
      <div className={selected ? "split" : undefined}>
        <InstanceList org={org} ws={ws} serial={s.serial} selected={selected} onSelect={setSelected} module={module} onClearModule={() => setModule(null)} />
        {selected ? <AttributePanel org={org} ws={ws} serial={s.serial} address={selected} onClose={() => setSelected(null)} /> : null}
      </div>
      )}
    </>
  );
}
