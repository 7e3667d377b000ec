"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api, orgPath, query } from "@/lib/api";
import { formatDate } from "@/lib/format";
import type { AuditEvent, Paged } from "@/lib/types";
import { Empty, ErrorMessage, Loading, Pager } from "../ui";

const PAGE_SIZE = 50;

function detailText(d: unknown): string {
  if (d === null || d === undefined) return "";
  if (typeof d !== "object") return String(d);
  return Object.entries(d as Record<string, unknown>)
    .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
    .join(" ");
}

/** Who did what, when, from where — newest first; owners only. */
export function AuditLog({ org }: { org: string }) {
  const [page, setPage] = useState(1);
  const [action, setAction] = useState("");
  const [filter, setFilter] = useState("");
  useEffect(() => {
    const t = setTimeout(() => (setFilter(action.trim()), setPage(1)), 300);
    return () => clearTimeout(t);
  }, [action]);
  const list = useQuery({
    queryKey: ["audit", org, filter, page],
    queryFn: () => api<Paged<AuditEvent>>(`${orgPath(org)}/audit${query({ page, pageSize: PAGE_SIZE, action: filter })}`),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <div className="page-head">
        <h1>Audit log</h1>
      </div>
      <div className="toolbar">
        <input type="search" className="search" aria-label="Filter by action" placeholder="Action, e.g. state.rollback" value={action} onChange={(e) => setAction(e.target.value)} />
      </div>
      <ErrorMessage error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : list.data && list.data.data.length === 0 ? (
        <Empty>No events{filter ? ` for “${filter}”` : ""}.</Empty>
      ) : list.data ? (
        <table className="table" aria-label="Audit events">
          <thead>
            <tr>
              <th>Time</th>
              <th>Action</th>
              <th>Actor</th>
              <th>Target</th>
              <th>Source IP</th>
              <th>Detail</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((e) => (
              <tr key={e.id}>
                <td className="nowrap">{formatDate(e.createdAt)}</td>
                <td className="mono">{e.action}</td>
                <td>{e.actorLabel}</td>
                <td>
                  <span className="muted small">{e.targetType}</span> {e.targetLabel ?? e.targetId ?? ""}
                </td>
                <td className="mono small">{e.ip ?? "—"}</td>
                <td className="mono small detail-cell">{detailText(e.detail)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data ? <Pager {...list.data.pagination} onPage={setPage} /> : null}
    </>
  );
}
