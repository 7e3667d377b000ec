// Accounts in the browser: a personal token is shown once and works until revoked; owners add a
// member, put them in a team, and give that team access to a workspace.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ORG, admin, signIn, snap } from "./support";

test("a personal API token is shown once, works, and stops working when revoked", async ({ page, request }, testInfo) => {
  await signIn(page);
  await page.getByRole("link", { name: "API tokens" }).click();
  await page.waitForURL("**/settings/tokens");
  const description = `e2e laptop ${Date.now()}`;
  await page.getByLabel("Description").fill(description);
  await page.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^trc_/);
  await expect(page.getByRole("button", { name: "Copy token" })).toBeVisible();
  await snap(page, testInfo, "tokens-01-created");

  const me = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${secret}` } });
  expect(me.status()).toBe(200);

  // `terrace login` checks the token against this server and saves it where the CLI finds it.
  const base = testInfo.project.use.baseURL ?? "";
  const home = mkdtempSync(path.join(tmpdir(), "terrace-login-"));
  const cli = path.resolve(testInfo.config.rootDir, "../../engine/bin/terrace.mjs");
  const login = execFileSync(process.execPath, [cli, "login", "-no-color", base], { input: `${secret}\n`, env: { ...process.env, HOME: home }, encoding: "utf8" });
  expect(login).toContain(`Success! Terrace is logged in to ${new URL(base).host} as ${admin.email}.`);
  const saved = JSON.parse(readFileSync(path.join(home, ".terraform.d", "credentials.tfrc.json"), "utf8")) as { credentials: Record<string, { token: string }> };
  expect(saved.credentials[new URL(base).host]?.token).toBe(secret);
  rmSync(home, { recursive: true, force: true });

  // Once dismissed, the secret is gone from the page; the list shows only its prefix.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(page.getByText(secret)).toHaveCount(0);
  const row = page.getByRole("table", { name: "Your API tokens" }).getByRole("row").filter({ hasText: description });
  await expect(row).toContainText("active");

  await row.getByRole("button", { name: `Revoke token ${description}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
  await expect(row).toContainText("revoked");
  await snap(page, testInfo, "tokens-02-revoked");
  const after = await request.get("/api/v1/me", { headers: { Authorization: `Bearer ${secret}` } });
  expect(after.status()).toBe(401);
});

test("owners manage members, teams and workspace access", async ({ page }, testInfo) => {
  const stamp = Date.now().toString(36);
  const email = `dev-${stamp}@terrace.test`;
  const team = `devs-${stamp}`;
  const ws = `e2e-access-${stamp}`;
  await signIn(page);

  // A workspace to grant access to.
  await page.getByRole("button", { name: "New workspace" }).click();
  await page.getByLabel("Workspace name").fill(ws);
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL(`**/workspaces/${ws}`);

  await page.getByRole("link", { name: "Members" }).click();
  await page.getByRole("button", { name: "Add member" }).click();
  const form = page.getByRole("form", { name: "Add member" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill("Dev Eloper");
  await form.getByLabel("Initial password").fill("dev-password-123");
  await form.getByRole("button", { name: "Add", exact: true }).click();
  await expect(page.getByRole("table", { name: "Members" })).toContainText(email);
  await snap(page, testInfo, "members");

  await page.getByRole("link", { name: "Teams" }).click();
  await page.getByLabel("New team name").fill(team);
  await page.getByRole("button", { name: "Create team" }).click();
  const card = page.getByRole("region", { name: `Team ${team}` });
  await expect(card).toBeVisible();
  await card.getByLabel(`Email of a member to add to ${team}`).fill(email);
  await card.getByRole("button", { name: "Add to team" }).click();
  await expect(card.getByRole("list", { name: `Members of ${team}` })).toContainText("Dev Eloper");

  await page.getByLabel("Workspace", { exact: true }).selectOption(ws);
  const level = page.getByRole("table", { name: `Team access to ${ws}` }).getByLabel(`Access of team ${team}`);
  await level.selectOption("write");
  await page.reload();
  await page.getByLabel("Workspace", { exact: true }).selectOption(ws);
  await expect(page.getByRole("table", { name: `Team access to ${ws}` }).getByLabel(`Access of team ${team}`)).toHaveValue("write");
  await snap(page, testInfo, "teams");

  // A token for the team (for CI): shown once.
  await page.getByRole("link", { name: "Team tokens" }).click();
  await page.getByLabel("Team", { exact: true }).selectOption(team);
  await page.getByLabel("Description").fill("ci pipeline");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toHaveText(/^trc_/);
  await expect(page.getByRole("table", { name: `Tokens of team ${team}` })).toContainText("ci pipeline");
  await snap(page, testInfo, "team-tokens");

  // Search finds the workspace by part of its name.
  await page.getByRole("link", { name: "Workspaces" }).click();
  await page.getByLabel("Search workspaces").fill(`access-${stamp}`);
  const rows = page.getByRole("table", { name: "Workspaces" }).getByRole("row");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(ws);

  // Rename the workspace, then delete it (it holds no state, so no force is needed).
  await rows.nth(1).getByRole("link", { name: ws }).click();
  await page.waitForURL(`**/workspaces/${ws}`);
  const settings = page.getByRole("form", { name: "Workspace settings" });
  await settings.getByLabel("Name").fill(`${ws}-renamed`);
  await settings.getByRole("button", { name: "Save settings" }).click();
  await page.waitForURL(`**/workspaces/${ws}-renamed`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${ws}-renamed`);
  await page.getByRole("button", { name: "Delete workspace" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces`);
  await page.getByLabel("Search workspaces").fill(`access-${stamp}`);
  await expect(page.getByText(`No workspace matches`)).toBeVisible();

  await page.getByRole("link", { name: "Audit log" }).click();
  const audit = page.getByRole("table", { name: "Audit events" });
  await expect(audit).toContainText(team);
  await expect(audit.getByRole("row").filter({ hasText: "workspace.delete" }).first()).toBeVisible();
  await snap(page, testInfo, "audit-after-delete");
});
