// Area "A" of the OpenTofu conformance cases (provider configuration and provider for_each at
// configuration level), run in place from ../shared/conformance relative to the repository root
// through the same harness as `npm run conformance`. Case 007 needs `tofu test` (a later part).
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runProviderConfigCase } from "./provider_validation.harness.js";

const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..", "..");
const CASES = path.resolve(REPO_ROOT, "..", "shared", "conformance", "opentofu", "cases");
const present = existsSync(CASES);
if (!present) console.log(`skipping provider configuration conformance: ${CASES} not found (the shared conformance checkout is absent)`);

const IDS = ["001", "002", "003", "004", "005", "006", "008"];

describe.skipIf(!present)("conformance A: provider configuration", () => {
  const names = present ? readdirSync(CASES) : [];
  it.each(IDS)("case %s", (id) => {
    const name = names.find((n) => n.startsWith(`${id}-`));
    expect(name, `case ${id} directory`).toBeDefined();
    const r = runProviderConfigCase(path.join(CASES, name ?? ""));
    expect(r.message).toMatch(/^(ok|\d+ (checks|rows))$/);
    expect(r.ok).toBe(true);
  });

  it("case 007 is reported as not handled here", () => {
    const name = names.find((n) => n.startsWith("007-"));
    if (!name) return;
    expect(runProviderConfigCase(path.join(CASES, name)).ok).toBe(false);
  });
});
