import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SetupForm } from "@/components/auth/setup-form";
import { needsSetup } from "@/server/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Set up" };

/** Shown only while Terrace has no users; afterwards it sends people to sign in. */
export default async function SetupPage() {
  if (!(await needsSetup())) redirect("/login");
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand" aria-hidden="true">▰ Terrace</div>
        <h1>Set up Terrace</h1>
        <p className="muted">Create the first administrator and the organization they own.</p>
        <SetupForm />
      </div>
    </main>
  );
}
