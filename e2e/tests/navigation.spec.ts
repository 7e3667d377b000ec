// Where people land: signed-out visitors go to sign in (and into the organization they asked for);
// once Terrace is set up, /setup is closed; wrong passwords get a clear message.
import { expect, test } from "@playwright/test";
import { ORG, admin, snap } from "./support";

test("signed-out visitors are sent to sign in, then into the organization", async ({ page }, testInfo) => {
  await page.goto("/");
  await page.waitForURL("**/login");
  await page.goto("/setup");
  await page.waitForURL("**/login");

  await page.goto(`/app/${ORG}/settings/audit`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Invalid email or password" })).toBeVisible();
  await snap(page, testInfo, "login-error");

  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces`);
  // The brand logo is a static asset from the repository's public/ directory.
  const logo = page.locator("header .brand img");
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Signing out ends the session: organization pages need a new sign-in.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.waitForURL("**/login");
  await page.goto(`/app/${ORG}/workspaces`);
  await page.waitForURL(/\/login/);
});

test("an unknown organization is not found", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces`);
  const res = await page.goto("/app/no-such-org-here/workspaces");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
});

test("static assets from public/ are served, and robots are kept out", async ({ request }) => {
  const res = await request.get("/robots.txt");
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain("Disallow: /");
});
