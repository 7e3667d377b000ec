import { z } from "zod";

// The API's list convention: `?page=1&pageSize=50` (pageSize at most 200), answered with
// `{"data": [...], "pagination": {"page", "pageSize", "total"}}`.
export const pageFields = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
};

export type Page = { page: number; pageSize: number };

/** Prisma's skip/take for a page. */
export function pageWindow(p: Page): { skip: number; take: number } {
  return { skip: (p.page - 1) * p.pageSize, take: p.pageSize };
}

export function paged<T>(data: T[], p: Page, total: number) {
  return { data, pagination: { page: p.page, pageSize: p.pageSize, total } };
}
