import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { needsSetup, sessionUser } from "@/server/auth/page";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ next?: string | string[] }> }) {
  if (await needsSetup()) redirect("/setup");
  if (await sessionUser()) redirect("/");
  const { next } = await searchParams;
  return (
    <main className="auth-page">
      <div className="auth-card">
        <div className="auth-brand" aria-hidden="true">▰ Terrace</div>
        <h1>Sign in to Terrace</h1>
        <LoginForm next={typeof next === "string" ? next : undefined} />
      </div>
    </main>
  );
}
