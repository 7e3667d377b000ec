"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, enc, orgPath, query, wsPath } from "@/lib/api";
import { LEVELS, type Access, type Paged, type Team, type Workspace } from "@/lib/types";
import { Badge, ConfirmDialog, Empty, ErrorMessage, Field, Loading } from "../ui";

/** Teams, their members, and which level each team has on each workspace. */
export function Teams({ org }: { org: string }) {
  const teams = useQuery({ queryKey: ["teams", org], queryFn: () => api<{ data: Team[] }>(`${orgPath(org)}/teams`) });
  return (
    <>
      <div className="page-head">
        <h1>Teams</h1>
      </div>
      <CreateTeam org={org} />
      <ErrorMessage error={teams.error} />
      {teams.isPending ? <Loading /> : null}
      {teams.data?.data.length === 0 ? <Empty>No teams yet.</Empty> : null}
      <div className="stack">
        {teams.data?.data.map((t) => (
          <TeamCard key={t.name} org={org} team={t} />
        ))}
      </div>
      {teams.data ? <WorkspaceAccess org={org} teams={teams.data.data} /> : null}
    </>
  );
}

function CreateTeam({ org }: { org: string }) {
  const qc = useQueryClient();
  const [name, setName] = useState("");
  const [manage, setManage] = useState(false);
  const m = useMutation({
    mutationFn: () => api(`${orgPath(org)}/teams`, { method: "POST", body: { name, manageWorkspaces: manage } }),
    onSuccess: async () => {
      setName("");
      setManage(false);
      await qc.invalidateQueries({ queryKey: ["teams", org] });
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="card row wrap" onSubmit={submit} aria-label="Create team">
      <Field label="New team name">
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <label className="check align-end">
        <input type="checkbox" checked={manage} onChange={(e) => setManage(e.target.checked)} /> Manages all workspaces
      </label>
      <button type="submit" className="btn btn-primary align-end" disabled={m.isPending}>
        Create team
      </button>
      <ErrorMessage error={m.error} />
    </form>
  );
}

function TeamCard({ org, team }: { org: string; team: Team }) {
  const qc = useQueryClient();
  const path = `${orgPath(org)}/teams/${enc(team.name)}`;
  const refresh = () => qc.invalidateQueries({ queryKey: ["teams", org] });
  const [email, setEmail] = useState("");
  const [deleting, setDeleting] = useState(false);
  const toggle = useMutation({
    mutationFn: (manageWorkspaces: boolean) => api(path, { method: "PATCH", body: { manageWorkspaces } }),
    onSettled: refresh,
  });
  const add = useMutation({
    mutationFn: () => api(`${path}/members`, { method: "POST", body: { email } }),
    onSuccess: async () => {
      setEmail("");
      await refresh();
    },
  });
  const removeMember = useMutation({
    mutationFn: (userId: string) => api(`${path}/members/${enc(userId)}`, { method: "DELETE" }),
    onSettled: refresh,
  });
  const del = useMutation({
    mutationFn: () => api(path, { method: "DELETE" }),
    onSuccess: async () => {
      setDeleting(false);
      await refresh();
    },
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    add.mutate();
  }
  return (
    <section className="card" aria-label={`Team ${team.name}`}>
      <div className="card-head">
        <h2>
          {team.name} {team.manageWorkspaces ? <Badge tone="info">manages workspaces</Badge> : null}
        </h2>
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={team.manageWorkspaces} disabled={toggle.isPending} onChange={(e) => toggle.mutate(e.target.checked)} /> Manages all
            workspaces
          </label>
          <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => (del.reset(), setDeleting(true))}>
            Delete team
          </button>
        </div>
      </div>
      <ErrorMessage error={toggle.error ?? removeMember.error} />
      {team.members.length === 0 ? (
        <p className="muted small">No members.</p>
      ) : (
        <ul className="chips" aria-label={`Members of ${team.name}`}>
          {team.members.map((m) => (
            <li key={m.userId} className="chip">
              <span title={m.email}>{m.name || m.email}</span>
              <button type="button" className="chip-x" aria-label={`Remove ${m.email} from ${team.name}`} onClick={() => removeMember.mutate(m.userId)}>
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="row" onSubmit={submit} aria-label={`Add member to ${team.name}`}>
        <input type="email" required aria-label={`Email of a member to add to ${team.name}`} placeholder="person@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
        <button type="submit" className="btn btn-small" disabled={add.isPending}>
          Add to team
        </button>
      </form>
      <ErrorMessage error={add.error} />
      {deleting ? (
        <ConfirmDialog
          title={`Delete team ${team.name}?`}
          confirmLabel="Delete team"
          danger
          pending={del.isPending}
          error={del.error}
          onConfirm={() => del.mutate()}
          onCancel={() => setDeleting(false)}
        >
          <p>Its members lose the workspace access the team gave them, and its tokens stop working.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** Per-workspace team levels: pick a workspace, set each team's level (or none). */
function WorkspaceAccess({ org, teams }: { org: string; teams: Team[] }) {
  const qc = useQueryClient();
  const [ws, setWs] = useState("");
  const workspaces = useQuery({
    queryKey: ["workspaces", org, "", "all"],
    queryFn: () => api<Paged<Workspace>>(`${orgPath(org)}/workspaces${query({ pageSize: 200 })}`),
  });
  const chosen = ws || workspaces.data?.data[0]?.name || "";
  const access = useQuery({
    queryKey: ["access", org, chosen],
    queryFn: () => api<{ data: Access[] }>(`${wsPath(org, chosen)}/access`),
    enabled: !!chosen,
  });
  const set = useMutation({
    mutationFn: (v: { team: string; level: string }) =>
      v.level === "none"
        ? api(`${wsPath(org, chosen)}/access/${enc(v.team)}`, { method: "DELETE" })
        : api(`${wsPath(org, chosen)}/access/${enc(v.team)}`, { method: "PUT", body: { level: v.level } }),
    onSettled: () => qc.invalidateQueries({ queryKey: ["access", org, chosen] }),
  });
  const levelOf = new Map((access.data?.data ?? []).map((a) => [a.team, a.level]));
  return (
    <section className="card" aria-labelledby="access-title">
      <h2 id="access-title">Workspace access</h2>
      <p className="muted small">
        Levels: <b>read</b> (state and history) &lt; <b>plan</b> &lt; <b>write</b> (lock, write state, roll back) &lt; <b>admin</b> (settings, delete, access). Teams that
        manage all workspaces and organization owners have admin everywhere.
      </p>
      <ErrorMessage error={workspaces.error} />
      {workspaces.data && workspaces.data.data.length === 0 ? <Empty>No workspaces yet.</Empty> : null}
      {chosen ? (
        <>
          <div className="toolbar">
            <Field label="Workspace">
              <select value={chosen} onChange={(e) => setWs(e.target.value)}>
                {workspaces.data?.data.map((w) => (
                  <option key={w.name} value={w.name}>
                    {w.name}
                  </option>
                ))}
              </select>
            </Field>
          </div>
          <ErrorMessage error={access.error ?? set.error} />
          <table className="table compact" aria-label={`Team access to ${chosen}`}>
            <thead>
              <tr>
                <th>Team</th>
                <th>Level</th>
              </tr>
            </thead>
            <tbody>
              {teams.map((t) => (
                <tr key={t.name}>
                  <td>
                    {t.name} {t.manageWorkspaces ? <span className="muted small">(admin via “manages workspaces”)</span> : null}
                  </td>
                  <td>
                    <select
                      aria-label={`Access of team ${t.name}`}
                      value={levelOf.get(t.name) ?? "none"}
                      disabled={access.isPending || set.isPending}
                      onChange={(e) => set.mutate({ team: t.name, level: e.target.value })}
                    >
                      <option value="none">none</option>
                      {LEVELS.map((l) => (
                        <option key={l} value={l}>
                          {l}
                        </option>
                      ))}
                    </select>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  );
}
