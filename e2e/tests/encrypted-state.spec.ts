// A state the client encrypted (OpenTofu's state encryption) in the browser: the history marks it
// and offers no rollback to it, its version page says what Terrace knows and does not, and the
// workspace list shows no resource count for it.
import { expect, test } from "@playwright/test";
import { ORG, newLineage, pushState, signIn, snap, stateV4, watchConsole } from "./support";

test("an encrypted state version is marked, explained, and not offered for rollback", async ({ page, request }, testInfo) => {
  const ws = `e2e-enc-${Date.now().toString(36)}`;
  const lineage = newLineage();
  const consoleWatch = watchConsole(page);
  // A plain first version, then the envelope OpenTofu writes once encryption is configured.
  await pushState(request, ws, stateV4(1, lineage, [{ type: "terraform_data", name: "x", provider: 'provider["terraform.io/builtin/terraform"]', instances: [{ attributes: { id: "1" } }] }]));
  await pushState(request, ws, {
    serial: 2,
    lineage,
    meta: { "key_provider.pbkdf2.k": Buffer.from('{"salt":"AAAA","iterations":600000,"hash_function":"sha512","key_length":32}').toString("base64") },
    encrypted_data: Buffer.from("sealed by the client").toString("base64"),
    encryption_version: "v0",
  });

  await signIn(page);
  const row = page.getByRole("table", { name: "Workspaces" }).getByRole("row").filter({ hasText: ws });
  await expect(row).toContainText("serial 2");
  await expect(row.getByTitle("encrypted by the client")).toHaveText("—");

  await page.goto(`/app/${ORG}/workspaces/${ws}/states`);
  const versions = page.getByRole("table", { name: "State versions" });
  const encrypted = versions.getByRole("row").filter({ hasText: "#2" });
  await expect(encrypted).toContainText("encrypted");
  await expect(encrypted).toContainText("current");
  // The plain version may be rolled back to; nothing may be rolled back to the encrypted one.
  await expect(versions.getByRole("button", { name: "Roll back to version 1" })).toBeVisible();
  await expect(versions.getByRole("button", { name: "Roll back to version 2" })).toHaveCount(0);
  await snap(page, testInfo, "encrypted-history");

  await encrypted.getByRole("link", { name: "#2" }).click();
  await expect(page.getByRole("heading", { name: /State version #2/ })).toContainText("encrypted");
  await expect(page.getByText("This version was encrypted by the client (OpenTofu state encryption).")).toBeVisible();
  // Facts it knows; no instance list or filter for contents it cannot read.
  await expect(page.getByText(lineage)).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Filter instances" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Resource instances" })).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Modules" })).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Compare with #1" })).toHaveCount(0);
  await snap(page, testInfo, "encrypted-version");

  // The plain version's page does list its instances.
  await page.goto(`/app/${ORG}/workspaces/${ws}/states/1`);
  await expect(page.getByRole("table", { name: "Resource instances" })).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Filter instances" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Modules" })).toBeVisible();
  consoleWatch.expectNone();
});
