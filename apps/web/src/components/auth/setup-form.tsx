"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api } from "@/lib/api";
import { ErrorMessage, Field } from "../ui";

type SetupResult = { user: { id: string; email: string; name: string }; organization: { name: string } };

/** First start: creates the first admin and their organization, then opens its workspaces. */
export function SetupForm() {
  const [form, setForm] = useState({ name: "", email: "", password: "", organization: "" });
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const m = useMutation({
    mutationFn: () => api<SetupResult>("/setup", { method: "POST", body: form }),
    onSuccess: (r) => window.location.assign(`/app/${encodeURIComponent(r.organization.name)}/workspaces`),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Set up Terrace">
      <Field label="Your name">
        <input required autoComplete="name" value={form.name} onChange={set("name")} />
      </Field>
      <Field label="Email">
        <input required type="email" autoComplete="email" value={form.email} onChange={set("email")} />
      </Field>
      <Field label="Password" hint="At least 10 characters.">
        <input required type="password" autoComplete="new-password" minLength={10} value={form.password} onChange={set("password")} />
      </Field>
      <Field label="Organization name" hint={'Letters, digits, "-" and "_". You can add more organizations later.'}>
        <input required value={form.organization} onChange={set("organization")} placeholder="acme" />
      </Field>
      <ErrorMessage error={m.error} />
      <button type="submit" className="btn btn-primary" disabled={m.isPending}>
        {m.isPending ? "Creating…" : "Create admin and organization"}
      </button>
    </form>
  );
}
