"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api } from "@/lib/api";
import { ErrorMessage, Field } from "../ui";

export function CreateOrgForm() {
  const [name, setName] = useState("");
  const m = useMutation({
    mutationFn: () => api<{ name: string }>("/orgs", { method: "POST", body: { name } }),
    onSuccess: (o) => window.location.assign(`/app/${encodeURIComponent(o.name)}/workspaces`),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="card stack" onSubmit={submit} aria-label="Create organization">
      <Field label="Organization name">
        <input required value={name} onChange={(e) => setName(e.target.value)} />
      </Field>
      <ErrorMessage error={m.error} />
      <div>
        <button className="btn btn-primary" type="submit" disabled={m.isPending}>
          Create organization
        </button>
      </div>
    </form>
  );
}
