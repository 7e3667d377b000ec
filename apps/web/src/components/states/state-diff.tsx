"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { api, query, wsPath } from "@/lib/api";
import { formatDate, formatValue } from "@/lib/format";
import type { AttributeChange, ChangeAction, DiffRow, StateDiff } from "@/lib/types";
import { Badge, Empty, ErrorMessage, Loading, ValueText } from "../ui";
import { usePagedRows } from "./use-paged-rows";

const PAGE_SIZE = 200;
const SYMBOL: Record<ChangeAction, string> = { added: "+", removed: "-", changed: "~" };
const TONE: Record<ChangeAction, string> = { added: "ok", removed: "danger", changed: "warn" };

function Value({ v, sensitive }: { v: unknown; sensitive: boolean }) {
  if (sensitive) return <Badge tone="sensitive">sensitive</Badge>;
  if (v === undefined) return <span className="muted">—</span>;
  return <ValueText text={formatValue(v)} />;
}

function ChangeLine({ c }: { c: AttributeChange }) {
  return (
    <div className={`change change-${c.action}${c.meta ? " change-meta" : ""}`} role="listitem" title={c.meta ? "Instance metadata, not an attribute" : undefined}>
      <span className="change-sym" aria-hidden="true">
        {SYMBOL[c.action]}
      </span>
      <span className="mono change-path">{c.path}</span>
      <span className="mono change-vals">
        {c.action !== "added" ? <span className="before"><Value v={c.before} sensitive={c.sensitive} /></span> : null}
        {c.action === "changed" ? <span className="arrow" aria-label="changed to">→</span> : null}
        {c.action !== "removed" ? <span className="after"><Value v={c.after} sensitive={c.sensitive} /></span> : null}
      </span>
    </div>
  );
}

/** What changed between two state versions: counts, outputs, and a virtualised list of changed instances. */
export function StateDiffView({ org, ws, from, to }: { org: string; ws: string; from: number; to: number }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState<number[]>([]);
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setSearch(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const rows = usePagedRows<DiffRow, StateDiff>({
    key: ["diff", org, ws, from, to, search],
    pageSize: PAGE_SIZE,
    fetchPage: (offset, limit) => api<StateDiff>(`${wsPath(org, ws)}/state-versions/diff${query({ from, to, offset, limit, q: search })}`),
    visibleIndexes: visible,
  });
  const virtualizer = useVirtualizer({
    count: rows.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 90,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const firstIdx = items[0]?.index ?? 0;
  const lastIdx = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    setVisible((prev) => (prev[0] === firstIdx && prev[1] === lastIdx ? prev : [firstIdx, lastIdx]));
  }, [firstIdx, lastIdx]);

  const base = `/app/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(ws)}`;
  // Keep showing the last result while a new filter loads (the header and counts do not flicker).
  const [shown, setShown] = useState<StateDiff | undefined>(undefined);
  useEffect(() => {
    if (rows.first.data) setShown(rows.first.data);
  }, [rows.first.data]);
  const d = rows.first.data ?? shown;
  return (
    <>
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link href={`/app/${encodeURIComponent(org)}/workspaces`}>Workspaces</Link> <span aria-hidden="true">/</span> <Link href={base}>{ws}</Link>{" "}
        <span aria-hidden="true">/</span> <Link href={`${base}/states`}>States</Link> <span aria-hidden="true">/</span> <span>Diff</span>
      </nav>
      <div className="page-head">
        <div>
          <h1>
            Changes from <Link href={`${base}/states/${from}`}>#{from}</Link> to <Link href={`${base}/states/${to}`}>#{to}</Link>
          </h1>
          {d ? (
            <p className="muted">
              {formatDate(d.from.createdAt)} ({d.from.actorLabel}) → {formatDate(d.to.createdAt)} ({d.to.actorLabel})
            </p>
          ) : null}
        </div>
        <Link className="btn" href={`${base}/states/diff?from=${to}&to=${from}`}>
          Swap
        </Link>
      </div>
      <ErrorMessage error={rows.error} />
      {rows.first.isPending && !shown ? <Loading label="Comparing versions…" /> : null}
      {d ? (
        <>
          <div className="summary" role="group" aria-label="Summary">
            <span className="sum sum-added">
              <strong>{d.summary.added.toLocaleString("en")}</strong> added
            </span>
            <span className="sum sum-changed">
              <strong>{d.summary.changed.toLocaleString("en")}</strong> changed
            </span>
            <span className="sum sum-removed">
              <strong>{d.summary.removed.toLocaleString("en")}</strong> removed
            </span>
            <span className="sum">
              <strong>{d.summary.unchanged.toLocaleString("en")}</strong> unchanged
            </span>
          </div>
          {d.outputs.length ? (
            <section className="card" aria-labelledby="outputs-title">
              <h2 id="outputs-title">Outputs</h2>
              <div role="list" aria-label="Output changes">
                {d.outputs.map((o) => (
                  <ChangeLine key={o.name} c={{ path: o.name, action: o.action, before: o.before, after: o.after, sensitive: o.sensitive }} />
                ))}
              </div>
            </section>
          ) : null}
          <section className="card" aria-labelledby="changes-title">
            <div className="card-head">
              <h2 id="changes-title">Resource instances</h2>
              <span className="muted small">
                {d.total.toLocaleString("en")} {search ? "matching" : "changed"}
              </span>
            </div>
            <input type="search" className="search" aria-label="Filter changes" placeholder="Filter by address, type or provider" value={q} onChange={(e) => setQ(e.target.value)} />
            {d.total === 0 ? (
              <Empty>{search ? `No changed instance matches “${search}”.` : "No resource instance changed."}</Empty>
            ) : (
              <div ref={scrollRef} className="vscroll diff-scroll" role="list" aria-label="Instance changes" data-testid="diff-scroll">
                <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
                  {items.map((item) => {
                    const r = rows.row(item.index);
                    return (
                      <div key={item.key} data-index={item.index} ref={virtualizer.measureElement} className="vitem" style={{ transform: `translateY(${item.start}px)` }}>
                        {r ? (
                          <div className={`diff-row diff-${r.action}`} role="listitem" aria-label={`${r.action} ${r.address}${r.deposed ? ` deposed ${r.deposed}` : ""}`}>
                            <div className="diff-head">
                              <Badge tone={TONE[r.action]}>{r.action}</Badge>
                              <Link className="mono strong break" href={`${base}/states/${r.action === "removed" ? from : to}?address=${encodeURIComponent(r.address)}`} title={`Open in version ${r.action === "removed" ? from : to}`}>
                                {r.address}
                              </Link>
                              {r.deposed ? <Badge tone="warn">deposed {r.deposed}</Badge> : null}
                              <span className="mono muted small break">{r.provider}</span>
                            </div>
                            {r.changes.length ? (
                              <div role="list" className="changes">
                                {r.changes.map((c, i) => (
                                  <ChangeLine key={i} c={c} />
                                ))}
                              </div>
                            ) : null}
                            {r.changesOmitted ? <div className="muted small changes">…and {r.changesOmitted.toLocaleString("en")} more changes (download both versions to compare them all)</div> : null}
                          </div>
                        ) : (
                          <div className="diff-row placeholder muted">Loading…</div>
                        )}
                      </div>
                    );
                  })}
                </div>
              </div>
            )}
          </section>
        </>
      ) : null}
    </>
  );
}
