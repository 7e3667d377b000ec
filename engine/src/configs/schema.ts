// Schema helpers shared by the block decoders.
import type { BodySchema } from "../hcl/index.js";

/** The schema with no required arguments: override files give only what they change. */
export function schemaForOverrides(schema: BodySchema): BodySchema {
  return { attributes: (schema.attributes ?? []).map((a) => ({ name: a.name })), blocks: schema.blocks ?? [] };
}
