"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api } from "@/lib/api";
import { formatDate, timeAgo } from "@/lib/format";
import type { CreatedToken, Token } from "@/lib/types";
import { Badge, ConfirmDialog, CopyButton, Empty, ErrorMessage, Field, Loading, Notice } from "../ui";

/**
 * Create / list / revoke API tokens at one collection URL (the user's own, or a team's). A new
 * token's secret is shown once, right after creation, with a copy button; it is never shown again.
 */
export function TokenManager({ path, label }: { path: string; label: string }) {
  const qc = useQueryClient();
  const [description, setDescription] = useState("");
  const [created, setCreated] = useState<CreatedToken | null>(null);
  const [revoking, setRevoking] = useState<Token | null>(null);
  const list = useQuery({ queryKey: ["tokens", path], queryFn: () => api<{ data: Token[] }>(path) });
  const create = useMutation({
    mutationFn: () => api<CreatedToken>(path, { method: "POST", body: { description } }),
    onSuccess: async (t) => {
      setCreated(t);
      setDescription("");
      await qc.invalidateQueries({ queryKey: ["tokens", path] });
    },
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api(`${path}/${encodeURIComponent(id)}`, { method: "DELETE" }),
    onSuccess: async () => {
      setRevoking(null);
      await qc.invalidateQueries({ queryKey: ["tokens", path] });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    create.mutate();
  }
  const tokens = list.data?.data ?? [];
  return (
    <div className="stack">
      <form className="card row wrap" onSubmit={submit} aria-label={`Create ${label}`}>
        <Field label="Description">
          <input required maxLength={200} value={description} onChange={(e) => setDescription(e.target.value)} placeholder="CI pipeline, laptop…" />
        </Field>
        <button type="submit" className="btn btn-primary align-end" disabled={create.isPending}>
          Create token
        </button>
      </form>
      <ErrorMessage error={create.error} />
      {created ? (
        <div className="alert alert-ok token-secret" role="status" aria-label="New token">
          <p>
            <strong>Copy this token now.</strong> It is shown only once; Terrace stores only its hash.
          </p>
          <div className="row">
            <code className="secret" data-testid="new-token">
              {created.token}
            </code>
            <CopyButton text={created.token} label="Copy token" />
            <button type="button" className="btn btn-small btn-ghost" onClick={() => setCreated(null)}>
              Done
            </button>
          </div>
        </div>
      ) : null}
      <ErrorMessage error={list.error} />
      {list.isPending ? (
        <Loading />
      ) : tokens.length === 0 ? (
        <Empty>No tokens.</Empty>
      ) : (
        <table className="table" aria-label={label}>
          <thead>
            <tr>
              <th>Description</th>
              <th>Token</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Status</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((t) => (
              <tr key={t.id}>
                <td>{t.description}</td>
                <td className="mono">{t.prefix}…</td>
                <td title={formatDate(t.createdAt)}>{timeAgo(t.createdAt)}</td>
                <td title={formatDate(t.lastUsedAt)}>{t.lastUsedAt ? timeAgo(t.lastUsedAt) : "never"}</td>
                <td>
                  {t.revokedAt ? (
                    <Badge tone="danger" title={formatDate(t.revokedAt)}>
                      revoked
                    </Badge>
                  ) : t.expiresAt && new Date(t.expiresAt) < new Date() ? (
                    <Badge tone="warn">expired</Badge>
                  ) : (
                    <Badge tone="ok">active</Badge>
                  )}
                </td>
                <td className="actions">
                  {t.revokedAt ? null : (
                    <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => (revoke.reset(), setRevoking(t))} aria-label={`Revoke token ${t.description}`}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {revoke.isSuccess ? <Notice kind="ok">Token revoked.</Notice> : null}
      {revoking ? (
        <ConfirmDialog
          title="Revoke this token?"
          confirmLabel="Revoke"
          danger
          pending={revoke.isPending}
          error={revoke.error}
          onConfirm={() => revoke.mutate(revoking.id)}
          onCancel={() => setRevoking(null)}
        >
          <p>
            “{revoking.description}” ({revoking.prefix}…) stops working immediately. Anything using it — CI jobs, CLI backends — will get 401.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
