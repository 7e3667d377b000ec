// State content as base64 text: how bytea columns are read through node-postgres (../sql.ts).

/**
 * SQL for a column holding a bytea as base64 text, to be read with `fromBase64`. node-postgres
 * cannot read binary results of arbitrary bytes, and its hex bytea parsing takes twice as long
 * as PostgreSQL's base64 encoding plus Node's decoder (which skips the line breaks PostgreSQL adds).
 */
export const asBase64 = (column: string) => `encode(${column}, 'base64')`;

export function fromBase64(text: string): Buffer {
  return Buffer.from(text, "base64");
}
