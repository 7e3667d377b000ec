// A member with `read` access sees the state but none of the controls that would change it; the
// owner-only pages tell them so. (The API refuses these actions too; this is what the UI shows.)
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { ORG, admin, newLineage, pushState, snap, stateV4, watchConsole } from "./support";

test("a read-only member sees history but no rollback, force-unlock, settings or audit", async ({ page, request }, testInfo) => {
  const stamp = Date.now().toString(36);
  const email = `reader-${stamp}@terrace.test`;
  const password = "reader-password-1";
  const team = `readers-${stamp}`;
  const ws = `e2e-readonly-${stamp}`;
  const auth = { Authorization: `Bearer ${admin.token}` };
  const ok = async (p: Promise<{ status(): number; text(): Promise<string> }>) => {
    const r = await p;
    expect(r.status(), await r.text()).toBeLessThan(300);
  };

  // The owner sets it up through the API: a workspace with two versions, a member in a read team.
  const lineage = newLineage();
  const res = (input: string) => [{ type: "terraform_data", name: "x", provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ attributes: { id: "1", input } }] }];
  await pushState(request, ws, stateV4(1, lineage, res("a")));
  await pushState(request, ws, stateV4(2, lineage, res("b")));
  await ok(request.post(`/api/v1/orgs/${ORG}/members`, { headers: auth, data: { email, name: "Rea Der", password, role: "member" } }));
  await ok(request.post(`/api/v1/orgs/${ORG}/teams`, { headers: auth, data: { name: team } }));
  await ok(request.post(`/api/v1/orgs/${ORG}/teams/${team}/members`, { headers: auth, data: { email } }));
  await ok(request.put(`/api/v1/orgs/${ORG}/workspaces/${ws}/access/${team}`, { headers: auth, data: { level: "read" } }));

  const consoleWatch = watchConsole(page);
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces`);

  // Only the workspace they may read is listed, and no "New workspace" or owner tabs.
  const rows = page.getByRole("table", { name: "Workspaces" }).getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(ws);
  await expect(rows.nth(1)).toContainText("read");
  await expect(page.getByRole("button", { name: "New workspace" })).toHaveCount(0);
  const nav = page.getByRole("navigation", { name: "Organization" });
  await expect(nav.getByRole("link")).toHaveText(["Workspaces"]);
  await snap(page, testInfo, "reader-workspaces");

  await rows.nth(1).getByRole("link", { name: ws }).click();
  await expect(page.getByRole("heading", { name: "Current state" })).toBeVisible();
  await expect(page.getByRole("form", { name: "Workspace settings" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete workspace" })).toHaveCount(0);

  // Someone's CLI holds the lock: the reader sees who and why, but gets no force-unlock button.
  const lockBody = JSON.stringify({ ID: "0f9d7a56-0000-4000-8000-000000000001", Operation: "OperationTypePlan", Info: "", Who: "ops@laptop", Version: "1.11.4", Created: new Date().toISOString(), Path: "" });
  await ok(request.post(`/api/v1/state/${ORG}/${ws}/lock`, { headers: { ...auth, "Content-Type": "application/json", "Content-MD5": createHash("md5").update(lockBody).digest("base64") }, data: lockBody }));
  await page.reload();
  await expect(page.getByText("ops@laptop")).toBeVisible();
  await expect(page.getByText("Force-unlocking needs write access.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Force unlock" })).toHaveCount(0);
  await snap(page, testInfo, "reader-locked");
  await ok(request.delete(`/api/v1/orgs/${ORG}/workspaces/${ws}/lock`, { headers: auth }));

  await page.getByRole("link", { name: "State history" }).click();
  await expect(page.getByRole("table", { name: "State versions" }).getByRole("row")).toHaveCount(3);
  await expect(page.getByRole("button", { name: /Roll back/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Compare versions" }).click();
  await expect(page.getByRole("list", { name: "Instance changes" })).toContainText('"b"');
  await snap(page, testInfo, "reader-diff");

  await page.goto(`/app/${ORG}/settings/audit`);
  await expect(page.getByRole("alert").filter({ hasText: "Only owners" })).toBeVisible();
  consoleWatch.expectNone();
});
