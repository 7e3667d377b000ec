import { badRequest } from "../http/errors";

/**
 * A lock body as the http backend sends it with LOCK and UNLOCK:
 * `{"ID":"<uuid>","Operation":"OperationTypeApply","Info":"","Who":"user@host","Version":"1.11.4","Created":"…","Path":""}`.
 * `raw` is kept byte for byte: it is what a competing client receives with 423.
 */
export type LockBody = {
  raw: string;
  fields: Record<string, unknown>;
  id: string;
  operation: string;
  who: string;
};

const MAX_ID = 200;

/** Parses a lock body; an empty (or all-whitespace) body is `null`: `force-unlock` sends one. */
export function parseLockBody(body: Buffer): LockBody | null {
  const raw = body.toString("utf8");
  if (raw.trim() === "") return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    throw badRequest("Lock info is not valid JSON", (e as Error).message);
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) throw badRequest("Lock info must be a JSON object");
  const fields = data as Record<string, unknown>;
  const id = fields.ID;
  if (typeof id !== "string" || id.length === 0 || id.length > MAX_ID) {
    throw badRequest("Lock info needs an \"ID\"", `"ID" must be a string of 1 to ${MAX_ID} characters.`);
  }
  return {
    raw,
    fields,
    id,
    operation: typeof fields.Operation === "string" ? fields.Operation : "",
    who: typeof fields.Who === "string" ? fields.Who : "",
  };
}
