import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runTestCase } from "./conformance.harness.js";

const CASES = join(import.meta.dirname, "../../../../shared/conformance/opentofu/cases");

describe("conformance: tofu test", () => {
  it("007 mock_provider with for_each and alias passes both runs", async () => {
    const r = await runTestCase(join(CASES, "007-tftest-mock-provider-for-each"));
    expect(r.message).toContain('run "test"... pass');
    expect(r.ok).toBe(true);
  });
});
