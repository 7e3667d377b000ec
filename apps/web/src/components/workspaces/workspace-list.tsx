"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { api, orgPath, query } from "@/lib/api";
import { timeAgo, formatDate } from "@/lib/format";
import type { Org, Paged, Workspace } from "@/lib/types";
import { Badge, Empty, ErrorMessage, Field, Loading, Pager } from "../ui";

const PAGE_SIZE = 25;

/** Waits until typing pauses before searching, so each keystroke is not a request. */
function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

export function WorkspaceList({ org }: { org: string }) {
  const [q, setQ] = useState("");
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const search = useDebounced(q.trim(), 250);
  useEffect(() => setPage(1), [search]);
  const orgInfo = useQuery({ queryKey: ["org", org], queryFn: () => api<Org>(orgPath(org)) });
  const list = useQuery({
    queryKey: ["workspaces", org, search, page],
    queryFn: () => api<Paged<Workspace>>(`${orgPath(org)}/workspaces${query({ q: search, page, pageSize: PAGE_SIZE })}`),
    placeholderData: keepPreviousData,
  });
  const base = `/app/${encodeURIComponent(org)}/workspaces`;
  return (
    <section>
      <div className="page-head">
        <h1>Workspaces</h1>
        {orgInfo.data?.canCreateWorkspaces ? (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)} disabled={creating}>
            New workspace
          </button>
        ) : null}
      </div>
      {creating ? <CreateWorkspace org={org} onDone={() => setCreating(false)} /> : null}
      <div className="toolbar">
        <input type="search" className="search" aria-label="Search workspaces" placeholder="Search by name" value={q} onChange={(e) => setQ(e.target.value)} />
        {list.data ? <span className="muted">{list.data.pagination.total} workspaces</span> : null}
      </div>
      <ErrorMessage error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : list.data && list.data.data.length === 0 ? (
        <Empty>{search ? `No workspace matches “${search}”.` : "No workspaces yet. Create one, or point a CLI backend at a new name."}</Empty>
      ) : list.data ? (
        <table className="table" aria-label="Workspaces">
          <thead>
            <tr>
              <th>Name</th>
              <th>State</th>
              <th>Resources</th>
              <th>Your access</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((w) => (
              <tr key={w.name}>
                <td>
                  <Link href={`${base}/${encodeURIComponent(w.name)}`} className="strong">
                    {w.name}
                  </Link>
                  {w.description ? <div className="muted small">{w.description}</div> : null}
                </td>
                <td>
                  {w.current ? <span>serial {w.current.serial}</span> : <span className="muted">no state</span>}{" "}
                  {w.locked ? <Badge tone="warn">locked</Badge> : null}
                </td>
                <td className="num" title={w.current?.encrypted ? "encrypted by the client" : undefined}>
                  {w.current && !w.current.encrypted ? w.current.resourceCount : "—"}
                </td>
                <td>
                  <Badge>{w.level}</Badge>
                </td>
                <td title={formatDate(w.updatedAt)}>{timeAgo(w.current?.createdAt ?? w.updatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {list.data ? <Pager {...list.data.pagination} onPage={setPage} /> : null}
    </section>
  );
}

function CreateWorkspace({ org, onDone }: { org: string; onDone: () => void }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const m = useMutation({
    mutationFn: () => api<Workspace>(`${orgPath(org)}/workspaces`, { method: "POST", body: { name, ...(description ? { description } : {}) } }),
    onSuccess: async (w) => {
      await qc.invalidateQueries({ queryKey: ["workspaces", org] });
      router.push(`/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(w.name)}`);
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="card stack" onSubmit={submit} aria-label="New workspace">
      <h2>New workspace</h2>
      <Field label="Workspace name" hint='Letters, digits, "-" and "_"; used in the backend address.'>
        <input required autoFocus value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <Field label="Description">
        <input value={description} onChange={(e) => setDescription(e.target.value)} />
      </Field>
      <ErrorMessage error={m.error} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={m.isPending}>
          Create workspace
        </button>
        <button type="button" className="btn" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
