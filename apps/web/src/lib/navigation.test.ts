import { describe, expect, it } from "vitest";
import { safeNext } from "./navigation";

describe("safeNext (where sign-in sends you)", () => {
  it("keeps paths on this site", () => {
    expect(safeNext("/app/default/workspaces")).toBe("/app/default/workspaces");
    expect(safeNext("/app/a/workspaces/b/states/diff?from=1&to=2")).toBe("/app/a/workspaces/b/states/diff?from=1&to=2");
  });
  it("refuses anything that could leave the site", () => {
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "/\t/evil.example", "", null, undefined]) {
      expect(safeNext(bad)).toBe("/");
    }
  });
});
