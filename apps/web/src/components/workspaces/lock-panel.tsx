"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, wsPath } from "@/lib/api";
import { formatAge, formatDate } from "@/lib/format";
import type { Level, Lock } from "@/lib/types";
import { Badge, ConfirmDialog, ErrorMessage, Loading } from "../ui";

/** Lock status (refreshed every few seconds) with holder, operation and age; force-unlock for writers. */
export function LockPanel({ org, ws, level, compact }: { org: string; ws: string; level?: Level; compact?: boolean }) {
  const qc = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const lock = useQuery({
    queryKey: ["lock", org, ws],
    queryFn: () => api<Lock>(`${wsPath(org, ws)}/lock`),
    refetchInterval: 5_000,
    // Locks come and go from outside the browser (a CLI run): always re-check when shown.
    staleTime: 0,
  });
  const unlock = useMutation({
    mutationFn: () => api(`${wsPath(org, ws)}/lock`, { method: "DELETE" }),
    onSuccess: async () => {
      setConfirming(false);
      await qc.invalidateQueries({ queryKey: ["lock", org, ws] });
      await qc.invalidateQueries({ queryKey: ["workspace", org, ws] });
    },
  });
  const canWrite = level === "write" || level === "admin";
  const l = lock.data;
  const dialog =
    confirming && l?.locked ? (
      <ConfirmDialog
        title="Force unlock this workspace?"
        confirmLabel="Force unlock"
        danger
        pending={unlock.isPending}
        error={unlock.error}
        onConfirm={() => unlock.mutate()}
        onCancel={() => (setConfirming(false), unlock.reset())}
      >
        <p>
          {l.holder} has held the lock for {formatAge(l.ageSeconds)} ({l.operation || "unknown operation"}). Unlock only when you are sure
          that operation is no longer running: a run still writing could lose its state update. This is recorded in the audit log.
        </p>
      </ConfirmDialog>
    ) : null;
  // The one-line form (state history): shown only while locked, since rollbacks then fail.
  if (compact) {
    if (!l?.locked) return null;
    return (
      <div className="alert alert-warn lock-banner" role="status" aria-label="Lock">
        <span>
          <strong>Locked</strong> by {l.holder} for {l.operation || "an operation"} ({formatAge(l.ageSeconds)}). Rollbacks wait until it is
          unlocked.
        </span>
        {canWrite ? (
          <button type="button" className="btn btn-small btn-danger" onClick={() => setConfirming(true)}>
            Force unlock
          </button>
        ) : null}
        {dialog}
      </div>
    );
  }
  return (
    <section className="card" aria-labelledby="lock-title">
      <div className="card-head">
        <h2 id="lock-title">Lock</h2>
        {l ? l.locked ? <Badge tone="warn">Locked</Badge> : <Badge tone="ok">Unlocked</Badge> : null}
      </div>
      <ErrorMessage error={lock.error} />
      {lock.isPending ? <Loading /> : null}
      {l && !l.locked ? <p className="muted">No one holds the state lock.</p> : null}
      {l && l.locked ? (
        <>
          <dl className="facts" aria-label="Lock details">
            <dt>Holder</dt>
            <dd>{l.holder}</dd>
            <dt>Operation</dt>
            <dd>{l.operation || "—"}</dd>
            <dt>Who (CLI)</dt>
            <dd>{l.who || "—"}</dd>
            <dt>Age</dt>
            <dd title={formatDate(l.lockedAt)}>{formatAge(l.ageSeconds)}</dd>
            <dt>Lock ID</dt>
            <dd className="mono">{l.id}</dd>
            {l.info ? (
              <>
                <dt>Info</dt>
                <dd>{l.info}</dd>
              </>
            ) : null}
          </dl>
          {canWrite ? (
            <button type="button" className="btn btn-danger" onClick={() => setConfirming(true)}>
              Force unlock
            </button>
          ) : (
            <p className="muted small">Force-unlocking needs write access.</p>
          )}
        </>
      ) : null}
      {dialog}
    </section>
  );
}
