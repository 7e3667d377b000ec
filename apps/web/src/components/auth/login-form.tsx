"use client";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api } from "@/lib/api";
import { safeNext } from "@/lib/navigation";
import { ErrorMessage, Field } from "../ui";

export function LoginForm({ next }: { next?: string }) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const m = useMutation({
    mutationFn: () => api("/auth/login", { method: "POST", body: { email, password } }),
    // A full navigation so server components see the new session cookie.
    onSuccess: () => window.location.assign(safeNext(next)),
  });
  function submit(e: FormEvent) {
    e.preventDefault();
    m.mutate();
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Sign in">
      <Field label="Email">
        <input required type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Field label="Password">
        <input required type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </Field>
      <ErrorMessage error={m.error} />
      <button type="submit" className="btn btn-primary" disabled={m.isPending}>
        {m.isPending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
