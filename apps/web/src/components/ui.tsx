"use client";
// Small building blocks every page uses: messages, buttons with pending state, dialogs, paging.
import { cloneElement, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from "react";

export function ErrorMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const text = error instanceof Error ? error.message : String(error);
  return (
    <div className="alert alert-error" role="alert">
      {text}
    </div>
  );
}

export function Notice({ children, kind = "info" }: { children: ReactNode; kind?: "info" | "ok" | "warn" }) {
  return (
    <div className={`alert alert-${kind}`} role="status">
      {children}
    </div>
  );
}

export function Loading({ label = "Loading…" }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export function Badge({ children, tone = "neutral", title }: { children: ReactNode; tone?: string; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

/** Copies `text` to the clipboard; says so for two seconds. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(t);
  }, [copied]);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API needs a secure context; fall back to a hidden textarea.
      const ta = document.createElement("textarea");
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    setCopied(true);
  }
  return (
    <button type="button" className="btn btn-small" onClick={copy} aria-label={label}>
      {copied ? "Copied" : label}
    </button>
  );
}

/** A modal confirmation: the action runs on "confirm"; errors from it are shown inside. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  danger,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  pending?: boolean;
  error?: unknown;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const id = useId();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onCancel={(e) => (e.preventDefault(), onCancel())}>
      <h2 id={`${id}-title`}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <ErrorMessage error={error} />
      <div className="dialog-actions">
        <button type="button" className="btn" onClick={onCancel} disabled={pending}>
          Cancel
        </button>
        <button type="button" className={danger ? "btn btn-danger" : "btn btn-primary"} onClick={onConfirm} disabled={pending}>
          {pending ? "Working…" : confirmLabel}
        </button>
      </div>
    </dialog>
  );
}

/** Previous / next paging for `{page,pageSize,total}` lists. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (p: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize && page === 1) return null;
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <nav className="pager" aria-label="Pagination">
      <span className="muted">
        {first}–{last} of {total}
      </span>
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="btn btn-small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/**
 * A labelled form field. The label points at the control by id (not by wrapping it), so a
 * select's option text does not leak into its accessible name and getByLabel finds it exactly.
 */
export function Field({ label, hint, children }: { label: string; hint?: ReactNode; children: ReactElement<{ id?: string }> }) {
  const generated = useId();
  const id = children.props.id ?? generated;
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      {cloneElement(children, { id })}
      {hint ? <span className="field-hint">{hint}</span> : null}
    </div>
  );
}

const LONG_VALUE = 400;

/**
 * A value as text; very long ones (a 50 KB user_data, a policy document) are cut to a preview
 * with a button to show the rest, so one attribute cannot swamp a table or a diff row.
 */
export function ValueText({ text }: { text: string }) {
  const [all, setAll] = useState(false);
  if (text.length <= LONG_VALUE || all) return <span className="value">{text}</span>;
  return (
    <span className="value">
      {text.slice(0, LONG_VALUE)}…{" "}
      <button type="button" className="linklike small" onClick={() => setAll(true)}>
        show all {text.length.toLocaleString("en")} characters
      </button>
    </span>
  );
}
