"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, type FormEvent } from "react";
import { api, ApiRequestError, wsPath } from "@/lib/api";
import { formatBytes, formatDate, timeAgo } from "@/lib/format";
import type { Lock, VersionDetail, Workspace } from "@/lib/types";
import { Badge, ConfirmDialog, CopyButton, Empty, ErrorMessage, Field, Loading, Notice } from "../ui";
import { LockPanel } from "./lock-panel";
import { OutputsTable } from "../states/outputs-table";

type WorkspaceWithLock = Workspace & { lock: Lock | null };

export function WorkspaceOverview({ org, ws }: { org: string; ws: string }) {
  const w = useQuery({ queryKey: ["workspace", org, ws], queryFn: () => api<WorkspaceWithLock>(wsPath(org, ws)) });
  const current = useQuery({
    queryKey: ["version", org, ws, "current"],
    queryFn: () => api<VersionDetail>(`${wsPath(org, ws)}/state-versions/current`),
    enabled: !!w.data?.current,
  });
  const base = `/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`;
  if (w.isPending) return <Loading />;
  if (w.error) return <ErrorMessage error={w.error} />;
  const data = w.data;
  const isAdmin = data.level === "admin";
  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={`/app/${encodeURIComponent(org)}/workspaces`}>Workspaces</Link> <span aria-hidden="true">/</span> <span>{data.name}</span>
      </nav>
      <div className="page-head">
        <div>
          <h1>{data.name}</h1>
          {data.description ? <p className="muted">{data.description}</p> : null}
        </div>
        <div className="row">
          <Badge title="Your access level">{data.level}</Badge>
          <Link className="btn" href={`${base}/states`}>
            State history
          </Link>
        </div>
      </div>
      <div className="grid-2">
        <section className="card" aria-labelledby="current-title">
          <div className="card-head">
            <h2 id="current-title">Current state</h2>
            {data.current ? (
              <Link href={`${base}/states/${data.current.serial}`}>View version {data.current.serial}</Link>
            ) : null}
          </div>
          {!data.current ? (
            <Empty>No state yet. Configure the backend below and run <code>terraform init</code>, then apply.</Empty>
          ) : current.isPending ? (
            <Loading />
          ) : current.error ? (
            <ErrorMessage error={current.error} />
          ) : (
            <>
              <dl className="facts">
                <dt>Serial</dt>
                <dd>{current.data.data.serial}</dd>
                <dt>Resources</dt>
                <dd>
                  {current.data.data.encrypted
                    ? "encrypted by the client"
                    : `${current.data.data.resourceCount} (${current.data.data.instanceCount} instances)`}
                </dd>
                <dt>Modules</dt>
                <dd>{current.data.modules.length}</dd>
                <dt>Written</dt>
                <dd title={formatDate(current.data.data.createdAt)}>
                  {timeAgo(current.data.data.createdAt)} by {current.data.data.actorLabel} ({current.data.data.source})
                </dd>
                <dt>Terraform version</dt>
                <dd>{current.data.data.terraformVersion || "—"}</dd>
                <dt>Size</dt>
                <dd>{formatBytes(current.data.data.size)}</dd>
                <dt>Lineage</dt>
                <dd className="mono">{current.data.data.lineage}</dd>
              </dl>
              <h3>Outputs</h3>
              <OutputsTable outputs={current.data.outputs} />
            </>
          )}
        </section>
        <LockPanel org={org} ws={ws} level={data.level} />
      </div>
      <BackendSnippet org={org} ws={ws} />
      {isAdmin ? <WorkspaceSettings org={org} ws={data} /> : null}
    </>
  );
}

function BackendSnippet({ org, ws }: { org: string; ws: string }) {
  // The origin is only known in the browser (the server may sit behind a proxy).
  const [origin, setOrigin] = useState("https://terrace.example.com");
  useEffect(() => setOrigin(window.location.origin), []);
  const address = `${origin}/api/v1/state/${encodeURIComponent(org)}/${encodeURIComponent(ws)}`;
  const snippet = `terraform {
  backend "http" {
    address        = "${address}"
    lock_address   = "${address}/lock"
    unlock_address = "${address}/lock"
    username       = "terraform" # any value: the API token is the password
  }
}
# export TF_HTTP_PASSWORD=trc_...   (an API token; keep it out of the configuration)`;
  return (
    <section className="card" aria-labelledby="backend-title">
      <div className="card-head">
        <h2 id="backend-title">Use from the CLI</h2>
        <CopyButton text={snippet} label="Copy backend configuration" />
      </div>
      <p className="muted small">
        Add this to your configuration, create an API token under <Link href="/settings/tokens">API tokens</Link>, then run{" "}
        <code>terraform init</code> (or <code>tofu init</code>).
      </p>
      <pre className="code" aria-label="Backend configuration">
        {snippet}
      </pre>
    </section>
  );
}

function WorkspaceSettings({ org, ws }: { org: string; ws: WorkspaceWithLock }) {
  const router = useRouter();
  const qc = useQueryClient();
  const [name, setName] = useState(ws.name);
  const [description, setDescription] = useState(ws.description ?? "");
  const [deleting, setDeleting] = useState(false);
  const [force, setForce] = useState(false);
  const save = useMutation({
    mutationFn: () => api<Workspace>(wsPath(org, ws.name), { method: "PATCH", body: { name, description } }),
    onSuccess: async (w) => {
      await qc.invalidateQueries({ queryKey: ["workspaces", org] });
      if (w.name !== ws.name) router.replace(`/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(w.name)}`);
      else await qc.invalidateQueries({ queryKey: ["workspace", org, ws.name] });
    },
  });
  const del = useMutation({
    mutationFn: () => api(`${wsPath(org, ws.name)}${force ? "?force=true" : ""}`, { method: "DELETE" }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: ["workspaces", org] });
      router.replace(`/app/${encodeURIComponent(org)}/workspaces`);
    },
  });
  const needsForce = del.error instanceof ApiRequestError && del.error.status === 409;
  function submit(e: FormEvent) {
    e.preventDefault();
    save.mutate();
  }
  return (
    <section className="card settings" aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <form className="stack narrow-form" onSubmit={submit} aria-label="Workspace settings">
        <Field label="Name" hint="Renaming changes the backend address: update your configurations.">
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <Field label="Description">
          <input value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <ErrorMessage error={save.error} />
        {save.isSuccess && save.data.name === ws.name ? <Notice kind="ok">Saved.</Notice> : null}
        <div>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save settings
          </button>
        </div>
      </form>
      <div className="danger-zone">
        <h3>Delete workspace</h3>
        <p className="muted small">Deleting removes the workspace and its whole state history. Terrace refuses while the current state holds resources.</p>
        <button type="button" className="btn btn-danger" onClick={() => setDeleting(true)}>
          Delete workspace
        </button>
      </div>
      {deleting ? (
        <ConfirmDialog
          title={`Delete workspace ${ws.name}?`}
          confirmLabel={force ? "Delete anyway" : "Delete"}
          danger
          pending={del.isPending}
          error={del.error}
          onConfirm={() => del.mutate()}
          onCancel={() => (setDeleting(false), setForce(false), del.reset())}
        >
          <p>The state history of this workspace will be gone. This cannot be undone.</p>
          {needsForce || force ? (
            <label className="check">
              <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> Delete even though the state holds
              resources (they stay in your cloud, untracked)
            </label>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
