"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, orgPath } from "@/lib/api";
import type { Member } from "@/lib/types";
import { ConfirmDialog, ErrorMessage, Field, Loading } from "../ui";

export function Members({ org }: { org: string }) {
  const qc = useQueryClient();
  const key = ["members", org];
  const list = useQuery({ queryKey: key, queryFn: () => api<{ data: Member[] }>(`${orgPath(org)}/members`) });
  const [removing, setRemoving] = useState<Member | null>(null);
  const setRole = useMutation({
    mutationFn: (v: { userId: string; role: string }) => api(`${orgPath(org)}/members/${encodeURIComponent(v.userId)}`, { method: "PATCH", body: { role: v.role } }),
    onSettled: () => qc.invalidateQueries({ queryKey: key }),
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api(`${orgPath(org)}/members/${encodeURIComponent(userId)}`, { method: "DELETE" }),
    onSuccess: async () => {
      setRemoving(null);
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <>
      <div className="page-head">
        <h1>Members</h1>
      </div>
      <AddMember org={org} />
      <ErrorMessage error={list.error ?? setRole.error} />
      {list.isPending ? (
        <Loading />
      ) : list.data ? (
        <table className="table" aria-label="Members">
          <thead>
            <tr>
              <th>Name</th>
              <th>Email</th>
              <th>Role</th>
              <th>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((m) => (
              <tr key={m.userId}>
                <td>{m.name}</td>
                <td>{m.email}</td>
                <td>
                  <select aria-label={`Role of ${m.email}`} value={m.role} disabled={setRole.isPending} onChange={(e) => setRole.mutate({ userId: m.userId, role: e.target.value })}>
                    <option value="member">member</option>
                    <option value="owner">owner</option>
                  </select>
                </td>
                <td className="actions">
                  <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => (remove.reset(), setRemoving(m))} aria-label={`Remove ${m.email}`}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.email}?`}
          confirmLabel="Remove"
          danger
          pending={remove.isPending}
          error={remove.error}
          onConfirm={() => remove.mutate(removing.userId)}
          onCancel={() => setRemoving(null)}
        >
          <p>They lose access to every workspace of {org} and leave its teams.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function AddMember({ org }: { org: string }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState({ email: "", role: "member", name: "", password: "" });
  const m = useMutation({
    mutationFn: () =>
      api(`${orgPath(org)}/members`, {
        method: "POST",
        body: { email: form.email, role: form.role, ...(form.name ? { name: form.name } : {}), ...(form.password ? { password: form.password } : {}) },
      }),
    onSuccess: async () => {
      setForm({ email: "", role: "member", name: "", password: "" });
      setOpen(false);
      await qc.invalidateQueries({ queryKey: ["members", org] });
    },
  });
  if (!open)
    return (
      <div className="toolbar">
        <button type="button" className="btn btn-primary" onClick={() => setOpen(true)}>
          Add member
        </button>
      </div>
    );
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="card stack" onSubmit={submit} aria-label="Add member">
      <h2>Add member</h2>
      <div className="grid-form">
        <Field label="Email">
          <input required type="email" value={form.email} onChange={(e) => setForm({ ...form, email: e.target.value })} />
        </Field>
        <Field label="Role">
          <select value={form.role} onChange={(e) => setForm({ ...form, role: e.target.value })}>
            <option value="member">member</option>
            <option value="owner">owner</option>
          </select>
        </Field>
        <Field label="Name" hint="Only for a person new to Terrace.">
          <input value={form.name} onChange={(e) => setForm({ ...form, name: e.target.value })} />
        </Field>
        <Field label="Initial password" hint="Only for a new person; 10+ characters. Share it privately.">
          <input type="password" autoComplete="new-password" value={form.password} onChange={(e) => setForm({ ...form, password: e.target.value })} />
        </Field>
      </div>
      <ErrorMessage error={m.error} />
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={m.isPending}>
          Add
        </button>
        <button type="button" className="btn" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
