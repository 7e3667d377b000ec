"use client";
import Link from "next/link";

/** Shown when a page fails unexpectedly; the details stay in the server log. */
export default function ErrorPage({ reset }: { error: Error; reset: () => void }) {
  return (
    <main className="page narrow">
      <h1>Something went wrong</h1>
      <p className="muted">Terrace could not show this page. Try again; if it keeps failing, the server log has the details.</p>
      <div className="row">
        <button type="button" className="btn btn-primary" onClick={reset}>
          Try again
        </button>
        <Link className="btn" href="/">
          Go to your workspaces
        </Link>
      </div>
    </main>
  );
}
