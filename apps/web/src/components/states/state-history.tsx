"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { api, ApiRequestError, query, wsPath } from "@/lib/api";
import { formatBytes, formatDate, timeAgo } from "@/lib/format";
import type { Paged, StateVersion, Workspace } from "@/lib/types";
import { Badge, ConfirmDialog, Empty, ErrorMessage, Loading, Notice, Pager } from "../ui";
import { LockPanel } from "../workspaces/lock-panel";

const PAGE_SIZE = 50;

const SOURCE_TONE: Record<StateVersion["source"], string> = { cli: "neutral", run: "info", rollback: "warn", api: "neutral" };

/** The history of state versions: pick two to compare, roll back to one. */
export function StateHistory({ org, ws }: { org: string; ws: string }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const [from, setFrom] = useState<number | null>(null);
  const [to, setTo] = useState<number | null>(null);
  const [rollbackTo, setRollbackTo] = useState<StateVersion | null>(null);
  const [rolledBack, setRolledBack] = useState<StateVersion | null>(null);
  const workspace = useQuery({ queryKey: ["workspace", org, ws], queryFn: () => api<Workspace>(wsPath(org, ws)) });
  const versions = useQuery({
    queryKey: ["versions", org, ws, page],
    queryFn: () => api<Paged<StateVersion>>(`${wsPath(org, ws)}/state-versions${query({ page, pageSize: PAGE_SIZE })}`),
    placeholderData: keepPreviousData,
  });
  const rollback = useMutation({
    mutationFn: (serial: number) => api<{ data: StateVersion }>(`${wsPath(org, ws)}/state-versions/${serial}/rollback`, { method: "POST" }),
    onSuccess: async (r) => {
      setRollbackTo(null);
      setRolledBack(r.data);
      setPage(1);
      await Promise.all([
        qc.invalidateQueries({ queryKey: ["versions", org, ws] }),
        qc.invalidateQueries({ queryKey: ["workspace", org, ws] }),
        qc.invalidateQueries({ queryKey: ["version", org, ws, "current"] }),
        qc.invalidateQueries({ queryKey: ["lock", org, ws] }),
      ]);
    },
  });
  const canWrite = workspace.data?.level === "write" || workspace.data?.level === "admin";
  const base = `/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`;

  // Picking a version for "from" or "to"; the default pair is the newest two.
  const rows = versions.data?.data ?? [];
  const effFrom = from ?? (rows.length >= 2 ? rows[1]!.serial : null);
  const effTo = to ?? (rows.length >= 1 ? rows[0]!.serial : null);
  const canCompare = effFrom !== null && effTo !== null && effFrom !== effTo;
  function compare() {
    if (!canCompare) return;
    const a = Math.min(effFrom!, effTo!);
    const b = Math.max(effFrom!, effTo!);
    router.push(`${base}/states/diff?from=${a}&to=${b}`);
  }
  const lockedError = rollback.error instanceof ApiRequestError && rollback.error.status === 423;

  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={`/app/${encodeURIComponent(org)}/workspaces`}>Workspaces</Link> <span aria-hidden="true">/</span>{" "}
        <Link href={base}>{ws}</Link> <span aria-hidden="true">/</span> <span>States</span>
      </nav>
      <div className="page-head">
        <h1>State history</h1>
        <div className="row">
          <span className="muted small">
            Compare {effFrom ?? "—"} → {effTo ?? "—"}
          </span>
          <button type="button" className="btn btn-primary" onClick={compare} disabled={!canCompare}>
            Compare versions
          </button>
        </div>
      </div>
      <LockPanel org={org} ws={ws} level={workspace.data?.level} compact />
      {rolledBack ? (
        <Notice kind="ok">
          Rolled back: version {rolledBack.serial} now holds the content of version {rolledBack.rolledBackFromSerial ?? "?"}.
        </Notice>
      ) : null}
      <ErrorMessage error={versions.error} />
      {versions.isPending ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty>No state versions yet.</Empty>
      ) : (
        <table className="table" aria-label="State versions">
          <thead>
            <tr>
              <th className="pick" title="Compare from">
                From
              </th>
              <th className="pick" title="Compare to">
                To
              </th>
              <th>Serial</th>
              <th>Written</th>
              <th>By</th>
              <th>Source</th>
              <th className="num">Resources</th>
              <th className="num">Size</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((v) => (
              <tr key={v.id} className={v.current ? "current-row" : undefined}>
                <td className="pick">
                  <input type="radio" name="from" aria-label={`Compare from version ${v.serial}`} checked={effFrom === v.serial} onChange={() => setFrom(v.serial)} />
                </td>
                <td className="pick">
                  <input type="radio" name="to" aria-label={`Compare to version ${v.serial}`} checked={effTo === v.serial} onChange={() => setTo(v.serial)} />
                </td>
                <td>
                  <Link href={`${base}/states/${v.serial}`} className="strong">
                    #{v.serial}
                  </Link>{" "}
                  {v.current ? <Badge tone="ok">current</Badge> : null}
                  {v.encrypted ? <Badge tone="neutral">encrypted</Badge> : null}
                </td>
                <td title={formatDate(v.createdAt)}>{timeAgo(v.createdAt)}</td>
                <td>{v.actorLabel}</td>
                <td>
                  <Badge tone={SOURCE_TONE[v.source] ?? "neutral"}>{v.source}</Badge>
                  {v.rolledBackFromSerial !== null ? <span className="muted small"> from #{v.rolledBackFromSerial}</span> : null}
                </td>
                <td className="num">{v.encrypted ? "—" : v.resourceCount}</td>
                <td className="num">{formatBytes(v.size)}</td>
                <td className="actions">
                  <a className="btn btn-small btn-ghost" href={`/api/v1${wsPath(org, ws)}/state-versions/${v.serial}/raw`} download aria-label={`Download version ${v.serial}`}>
                    Download
                  </a>
                  {canWrite && !v.current && !v.encrypted ? (
                    <button type="button" className="btn btn-small" onClick={() => (rollback.reset(), setRollbackTo(v))} aria-label={`Roll back to version ${v.serial}`}>
                      Roll back
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {versions.data ? <Pager {...versions.data.pagination} onPage={setPage} /> : null}
      {rollbackTo ? (
        <ConfirmDialog
          title={`Roll back to version ${rollbackTo.serial}?`}
          confirmLabel="Roll back"
          danger
          pending={rollback.isPending}
          error={rollback.error}
          onConfirm={() => rollback.mutate(rollbackTo.serial)}
          onCancel={() => setRollbackTo(null)}
        >
          <p>
            Terrace writes a new version with the content of version {rollbackTo.serial} ({rollbackTo.resourceCount} resources, written{" "}
            {formatDate(rollbackTo.createdAt)}). Nothing is deleted: the versions after it stay in the history. The next plan compares your
            infrastructure against this state.
          </p>
          {lockedError ? <p className="muted">The state is locked. Wait for the operation to finish, or force-unlock it (above) if it has died.</p> : null}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
