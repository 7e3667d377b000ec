import { z } from "zod";

// Email addresses are identities here: stored and compared in lower case. The check is loose on
// purpose (one "@", no spaces); a stricter rule would refuse real addresses.
export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(320, "An email address has at most 320 characters")
  .regex(/^[^\s@]+@[^\s@]+$/, "Not an email address");

export const personNameSchema = z.string().trim().min(1, "A name is required").max(100, "A name has at most 100 characters");

export const uuidSchema = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);

/** True when `s` can be looked up as a UUID column (anything else is simply "not found"). */
export function isUuid(s: string): boolean {
  return uuidSchema.safeParse(s).success;
}

/** A unique constraint refused an insert or update (two people took the same name at once). */
export function isUniqueViolation(e: unknown): boolean {
  return typeof e === "object" && e !== null && (e as { code?: unknown }).code === "P2002";
}
