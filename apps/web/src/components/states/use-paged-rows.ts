"use client";
import { useQueries, useQuery } from "@tanstack/react-query";
import { useMemo } from "react";

/**
 * Rows of a long server-side list fetched page by page as they scroll into view: the first page
 * gives the total (so the virtual list knows its height), later pages load on demand and stay
 * cached. State versions never change, so pages never go stale.
 */
export function usePagedRows<Row, Page extends { total: number; data: Row[] }>(opts: {
  key: unknown[];
  pageSize: number;
  fetchPage: (offset: number, limit: number) => Promise<Page>;
  visibleIndexes: number[];
}) {
  const { key, pageSize, fetchPage, visibleIndexes } = opts;
  const first = useQuery({
    queryKey: [...key, 0],
    queryFn: () => fetchPage(0, pageSize),
    staleTime: Infinity,
  });
  const wanted = useMemo(() => {
    const s = new Set<number>();
    for (const i of visibleIndexes) s.add(Math.floor(i / pageSize));
    s.delete(0);
    return [...s].sort((a, b) => a - b);
  }, [visibleIndexes, pageSize]);
  const pages = useQueries({
    queries: wanted.map((p) => ({
      queryKey: [...key, p],
      queryFn: () => fetchPage(p * pageSize, pageSize),
      staleTime: Infinity,
    })),
  });
  const byPage = new Map<number, Row[]>();
  if (first.data) byPage.set(0, first.data.data);
  wanted.forEach((p, i) => {
    const d = pages[i]?.data;
    if (d) byPage.set(p, d.data);
  });
  const pageError = pages.find((p) => p.error)?.error ?? null;
  return {
    first,
    total: first.data?.total ?? 0,
    error: first.error ?? pageError,
    row: (index: number): Row | undefined => byPage.get(Math.floor(index / pageSize))?.[index % pageSize],
  };
}
