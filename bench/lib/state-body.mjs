// State bodies for the benchmarks: a v4 state of about `bytes` bytes, pretty-printed like
// terraform writes it, whose serial can be set without rebuilding the text.
import { createHash, randomUUID } from "node:crypto";

// Ten digits from the start, so every serial of a run has the same width and byte offset.
export const FIRST_SERIAL = 1_000_000_000;

export function stateTemplate(bytes = 1024 * 1024) {
  const lineage = randomUUID();
  const resources = [];
  const state = { version: 4, terraform_version: "1.11.4", serial: FIRST_SERIAL, lineage, outputs: {}, resources, check_results: null };
  let i = 0;
  // Grow until the pretty-printed text reaches the size; each instance is ~1.1 KB of JSON.
  while (JSON.stringify(state, null, 2).length < bytes) {
    for (let k = 0; k < 64; k++, i++) {
      resources.push({
        mode: "managed",
        type: "terraform_data",
        name: `r${i}`,
        provider: 'provider["terraform.io/builtin/terraform"]',
        instances: [{ schema_version: 0, attributes: { id: randomUUID(), input: { value: "x".repeat(600), type: "string" }, output: null, triggers_replace: null }, sensitive_attributes: [] }],
      });
    }
  }
  const text = Buffer.from(JSON.stringify(state, null, 2) + "\n");
  const offset = text.indexOf(`"serial": ${FIRST_SERIAL}`) + `"serial": `.length;
  return {
    size: text.length,
    lineage,
    /** A copy of the state with `serial` (10 digits) in place, and its Content-MD5. */
    withSerial(serial) {
      const body = Buffer.from(text);
      body.write(String(serial), offset, "latin1");
      return { body, md5: createHash("md5").update(body).digest("base64") };
    },
  };
}
