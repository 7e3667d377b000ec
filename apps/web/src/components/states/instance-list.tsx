"use client";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef, useState } from "react";
import { api, query, wsPath } from "@/lib/api";
import type { InstancePage, InstanceRow } from "@/lib/types";
import { Badge, ErrorMessage, Loading } from "../ui";
import { usePagedRows } from "./use-paged-rows";

const PAGE_SIZE = 500;
const ROW_HEIGHT = 30;

function moduleLabel(m: string) {
  return m === "" ? "Root module" : m;
}

/** The address inside its module: `aws_instance.web["x"]` for `module.a.aws_instance.web["x"]`. */
function localAddress(r: InstanceRow) {
  return r.module && r.address.startsWith(`${r.module}.`) ? r.address.slice(r.module.length + 1) : r.address;
}

/**
 * Every resource instance of a state version, grouped by module, in a virtualised list: only the
 * rows in view (plus a few) are in the DOM, and rows are fetched 500 at a time as they come into
 * view, so a 20,000-instance state scrolls as smoothly as a small one.
 */
export function InstanceList({
  org,
  ws,
  serial,
  selected,
  onSelect,
  module,
  onClearModule,
}: {
  org: string;
  ws: string;
  serial: number;
  selected: string | null;
  onSelect: (address: string) => void;
  /** Only this module's instances ("" = the root module); null = every module. */
  module: string | null;
  onClearModule: () => void;
}) {
  const [q, setQ] = useState("");
  const [search, setSearch] = useState("");
  useEffect(() => {
    const t = setTimeout(() => setSearch(q.trim()), 250);
    return () => clearTimeout(t);
  }, [q]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState<number[]>([]);
  const rows = usePagedRows<InstanceRow, InstancePage>({
    key: ["instances", org, ws, serial, search, module],
    pageSize: PAGE_SIZE,
    fetchPage: (offset, limit) => {
      // `module=` (empty) means the root module, so it is added even when empty.
      const mod = module === null ? "" : `&module=${encodeURIComponent(module)}`;
      return api<InstancePage>(`${wsPath(org, ws)}/state-versions/${serial}/instances${query({ offset, limit, q: search })}${mod}`);
    },
    visibleIndexes: visible,
  });
  const virtualizer = useVirtualizer({
    count: rows.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 15,
  });
  const items = virtualizer.getVirtualItems();
  const firstIdx = items[0]?.index ?? 0;
  const lastIdx = items[items.length - 1]?.index ?? 0;
  // Tell the pager which pages to load; only when the visible window really changed.
  useEffect(() => {
    setVisible((prev) => (prev[0] === firstIdx && prev[1] === lastIdx ? prev : [firstIdx, lastIdx]));
  }, [firstIdx, lastIdx]);
  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [search, module]);

  // The first row actually in view (the virtualizer's first item includes overscan rows above).
  const scrollTop = virtualizer.scrollOffset ?? 0;
  const topItem = items.find((i) => i.end > scrollTop);
  const top = topItem ? rows.row(topItem.index) : undefined;
  const topPrev = topItem && topItem.index > 0 ? rows.row(topItem.index - 1) : undefined;
  return (
    <section className="card instances" aria-labelledby="instances-title">
      <div className="card-head">
        <h2 id="instances-title">Resource instances</h2>
        <span className="muted small" aria-live="polite">
          {rows.first.data ? `${rows.total.toLocaleString("en")} ${search || module !== null ? "matching" : "in all"}` : ""}
        </span>
      </div>
      {module !== null ? (
        <p className="small">
          Module <span className="mono">{moduleLabel(module)}</span>
          <button type="button" className="btn btn-small btn-ghost filter-chip" onClick={onClearModule}>
            Show all modules
          </button>
        </p>
      ) : null}
      <input type="search" className="search" aria-label="Filter instances" placeholder="Filter by address, type or provider" value={q} onChange={(e) => setQ(e.target.value)} />
      <ErrorMessage error={rows.error} />
      {rows.first.isPending ? <Loading /> : null}
      {rows.first.data && rows.total === 0 ? <p className="muted">{search ? `No instance matches “${search}”.` : "This version has no resource instances."}</p> : null}
      <div role="table" aria-label="Resource instances" aria-rowcount={rows.total + 1} className="vtable">
        <div role="rowgroup" className="vtable-head">
          <div role="row" aria-rowindex={1} className="vrow">
            <span role="columnheader" className="c-addr">Address</span>
            <span role="columnheader" className="c-type">Type</span>
            <span role="columnheader" className="c-prov">Provider instance</span>
            <span role="columnheader" className="c-status">Notes</span>
          </div>
        </div>
        <div className="vscroll-frame">
        {/* Which module the rows at the top belong to, once its header has scrolled away. */}
        {top && topPrev && topPrev.module === top.module ? (
          <div className="vgroup vgroup-float" aria-hidden="true">
            {moduleLabel(top.module)}
          </div>
        ) : null}
        <div ref={scrollRef} className="vscroll" data-testid="instance-scroll">
          <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {items.map((item) => {
              const r = rows.row(item.index);
              const prev = item.index > 0 ? rows.row(item.index - 1) : undefined;
              const newGroup = r && (item.index === 0 || !prev || prev.module !== r.module);
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="vitem"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {newGroup ? (
                    <div className="vgroup" role="presentation">
                      {moduleLabel(r.module)}
                    </div>
                  ) : null}
                  {r ? (
                    <div role="row" aria-rowindex={item.index + 2} aria-selected={selected === r.address} className={`vrow${selected === r.address ? " selected" : ""}`}>
                      <span role="cell" className="c-addr mono">
                        <button type="button" className="linklike" onClick={() => onSelect(r.address)} title={r.address}>
                          {localAddress(r)}
                        </button>
                        {r.mode === "data" ? <Badge>data</Badge> : null}
                      </span>
                      <span role="cell" className="c-type mono small">
                        {r.type}
                      </span>
                      <span role="cell" className="c-prov mono small" title={r.provider}>
                        {r.provider}
                      </span>
                      <span role="cell" className="c-status">
                        {r.providerLevel === "instance" ? (
                          <Badge tone="info" title="The state records this instance's own provider instance (provider for_each)">
                            per-instance
                          </Badge>
                        ) : null}
                        {r.status === "tainted" ? <Badge tone="danger">tainted</Badge> : null}
                        {r.deposed.length ? <Badge tone="warn">{r.deposed.length} deposed</Badge> : null}
                      </span>
                    </div>
                  ) : (
                    <div role="row" aria-rowindex={item.index + 2} className="vrow placeholder">
                      <span role="cell" className="c-addr muted">
                        Loading…
                      </span>
                    </div>
                  )}
                </div>
              );
            })}
          </div>
        </div>
        </div>
      </div>
    </section>
  );
}
