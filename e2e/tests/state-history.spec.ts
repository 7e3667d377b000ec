// The whole state story in a browser: sign in, create a workspace, push two versions the way the
// CLI does, read the history, diff the versions, roll back, and find the rollback in the audit log.
import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { ORG, watchConsole, admin, newLineage, pushState, signIn, snap, stateV4, type Resource } from "./support";

const AWS = 'provider["registry.terraform.io/hashicorp/aws"]';

function resources(webInput: string, extraBucket: boolean): Resource[] {
  const list: Resource[] = [
    {
      type: "terraform_data",
      name: "web",
      provider: 'provider["terraform.io/builtin/terraform"]',
      instances: [{ attributes: { id: "d7a1e0c4", input: webInput, output: webInput, triggers_replace: null } }],
    },
    {
      module: 'module.net["eu"]',
      type: "aws_vpc",
      name: "main",
      each: "map",
      instances: [
        { index_key: "a", provider: `${AWS}.by_region["eu-west-1"]`, attributes: { id: "vpc-1", cidr_block: "10.0.0.0/16", tags: { Name: "a" } } },
        {
          index_key: "b",
          provider: `${AWS}.by_region["eu-central-1"]`,
          attributes: { id: "vpc-2", cidr_block: "10.1.0.0/16", tags: { Name: "b" }, secret_token: "s3cr3t-value" },
          sensitive_attributes: [[{ type: "get_attr", value: "secret_token" }]],
        },
      ],
    },
  ];
  if (extraBucket) {
    list.push({ type: "aws_s3_bucket", name: "logs", provider: AWS, instances: [{ attributes: { id: "logs-bucket", bucket: "logs-bucket" } }] });
  }
  return list;
}

test("history, diff, rollback and audit in the browser", async ({ page, request }, testInfo) => {
  const ws = `e2e-${Date.now().toString(36)}`;
  const consoleWatch = watchConsole(page);
  const lineage = newLineage();

  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Sign in to Terrace" })).toBeVisible();
  await snap(page, testInfo, "01-login");
  await signIn(page);
  await expect(page.getByRole("heading", { name: "Workspaces" })).toBeVisible();
  await snap(page, testInfo, "02-workspaces");

  // Create the workspace in the UI.
  await page.getByRole("button", { name: "New workspace" }).click();
  await page.getByLabel("Workspace name").fill(ws);
  await page.getByLabel("Description").fill("Created by the browser test");
  await page.getByRole("button", { name: "Create workspace" }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces/${ws}`);
  await expect(page.getByRole("heading", { name: ws, level: 1 })).toBeVisible();
  await expect(page.getByText("No state yet.")).toBeVisible();
  await snap(page, testInfo, "03-new-workspace");

  // Two versions through the CLI's endpoint: v2 changes an attribute and adds a bucket.
  await pushState(request, ws, stateV4(1, lineage, resources("hello-v1", false), { url: { value: "https://one.example", type: "string" } }));
  await pushState(
    request,
    ws,
    stateV4(2, lineage, resources("hello-v2", true), {
      url: { value: "https://two.example", type: "string" },
      db_password: { value: "hunter2-secret", type: "string", sensitive: true },
    }),
  );

  await page.reload();
  await expect(page.getByRole("link", { name: "View version 2" })).toBeVisible();
  await expect(page.getByText("Unlocked")).toBeVisible();
  await expect(page.getByLabel("Backend configuration", { exact: true })).toContainText(`/api/v1/state/${ORG}/${ws}`);
  await expect(page.getByText("hunter2-secret")).toHaveCount(0);
  await snap(page, testInfo, "04-overview-with-state");

  // History: two versions, newest first.
  await page.getByRole("link", { name: "State history" }).click();
  await page.waitForURL(`**/workspaces/${ws}/states`);
  const versions = page.getByRole("table", { name: "State versions" });
  await expect(versions.getByRole("row")).toHaveCount(3);
  await expect(versions.getByRole("row").nth(1)).toContainText("#2");
  await snap(page, testInfo, "05-history");

  // One version: modules, per-instance providers, masked sensitive values.
  await versions.getByRole("link", { name: "#2" }).click();
  await page.waitForURL(`**/states/2`);
  await expect(page.getByRole("heading", { name: /State version #2/ })).toBeVisible();
  const instances = page.getByRole("table", { name: "Resource instances" });
  await expect(instances.getByText('provider["registry.terraform.io/hashicorp/aws"].by_region["eu-central-1"]')).toBeVisible();
  await expect(page.getByRole("table", { name: "Outputs" }).getByText("sensitive")).toBeVisible();
  await instances.getByRole("button", { name: 'aws_vpc.main["b"]' }).click();
  const panel = page.getByRole("complementary", { name: "Instance attributes" });
  await expect(panel.getByText("10.1.0.0/16")).toBeVisible();
  await expect(panel.getByText("sensitive", { exact: true })).toBeVisible();
  await expect(page.getByText("s3cr3t-value")).toHaveCount(0);
  const download = page.getByRole("link", { name: "Download raw state" });
  await expect(download).toHaveAttribute("href", new RegExp(`/state-versions/2/raw$`));
  const raw = await page.request.get((await download.getAttribute("href"))!);
  expect(raw.status()).toBe(200);
  expect(raw.headers()["content-disposition"]).toContain(`${ws}-2.tfstate`);
  expect(((await raw.json()) as { serial: number; lineage: string }).lineage).toBe(lineage);
  await snap(page, testInfo, "06-version");

  // Diff the two versions: the changed attribute, the added bucket, the output.
  await page.goto(`/app/${ORG}/workspaces/${ws}/states`);
  await page.getByRole("button", { name: "Compare versions" }).click();
  await page.waitForURL(/\/states\/diff\?from=1&to=2/);
  const changes = page.getByRole("list", { name: "Instance changes" });
  const web = changes.getByRole("listitem", { name: "changed terraform_data.web" });
  await expect(web).toContainText("input");
  await expect(web).toContainText('"hello-v1"');
  await expect(web).toContainText('"hello-v2"');
  await expect(changes.getByRole("listitem", { name: "added aws_s3_bucket.logs" })).toBeVisible();
  await expect(page.getByRole("list", { name: "Output changes" })).toContainText("https://two.example");
  await expect(page.getByText("hunter2-secret")).toHaveCount(0);
  await snap(page, testInfo, "07-diff");

  // An address in the diff opens that instance in the newer version (a shareable link).
  await web.getByRole("link", { name: "terraform_data.web" }).click();
  await page.waitForURL(/\/states\/2\?address=terraform_data\.web$/);
  await expect(page.getByRole("complementary", { name: "Instance attributes" }).getByText('"hello-v2"').first()).toBeVisible();

  // Roll back to version 1: a new version 3 appears at the top.
  await page.goto(`/app/${ORG}/workspaces/${ws}/states`);
  await page.getByRole("button", { name: "Roll back to version 1" }).click();
  const dialog = page.getByRole("dialog", { name: "Roll back to version 1?" });
  await expect(dialog).toBeVisible();
  await snap(page, testInfo, "08-rollback-confirm");
  await dialog.getByRole("button", { name: "Roll back" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Rolled back: version 3")).toBeVisible();
  const top = versions.getByRole("row").nth(1);
  await expect(top).toContainText("#3");
  await expect(top).toContainText("rollback");
  await expect(top).toContainText("current");
  await snap(page, testInfo, "09-after-rollback");

  // A CLI takes the lock: the workspace page shows who holds it, for what, and can force-unlock it.
  const lockBody = JSON.stringify({
    ID: "6c1b8e0e-2d6f-4c8a-9b0e-5f3e2a1d7c44",
    Operation: "OperationTypeApply",
    Info: "",
    Who: "ci@runner-7",
    Version: "1.11.4",
    Created: new Date().toISOString(),
    Path: "",
  });
  const locked = await request.post(`/api/v1/state/${ORG}/${ws}/lock`, {
    headers: { Authorization: `Bearer ${admin.token}`, "Content-Type": "application/json", "Content-MD5": createHash("md5").update(lockBody).digest("base64") },
    data: lockBody,
  });
  expect(locked.status(), await locked.text()).toBe(200);
  await page.reload();
  await expect(page.getByRole("status", { name: "Lock" })).toContainText("OperationTypeApply");
  // A rollback now is refused with the lock's holder, and writes nothing.
  await page.getByRole("button", { name: "Roll back to version 2" }).click();
  const refused = page.getByRole("dialog", { name: "Roll back to version 2?" });
  await refused.getByRole("button", { name: "Roll back" }).click();
  await expect(refused.getByRole("alert")).toBeVisible();
  await snap(page, testInfo, "10-rollback-refused-while-locked");
  await refused.getByRole("button", { name: "Cancel" }).click();
  await expect(versions.getByRole("row")).toHaveCount(4);
  await page.getByRole("link", { name: ws }).click();
  await page.waitForURL(`**/workspaces/${ws}`);
  const lockDetails = page.getByRole("definition").filter({ hasText: "OperationTypeApply" });
  await expect(lockDetails).toBeVisible();
  await expect(page.getByText("ci@runner-7")).toBeVisible();
  await expect(page.getByText("Locked", { exact: true })).toBeVisible();
  await snap(page, testInfo, "11-locked");
  await page.getByRole("button", { name: "Force unlock" }).click();
  const unlockDialog = page.getByRole("dialog", { name: "Force unlock this workspace?" });
  await unlockDialog.getByRole("button", { name: "Force unlock" }).click();
  await expect(unlockDialog).toBeHidden();
  await expect(page.getByText("Unlocked", { exact: true })).toBeVisible();
  await snap(page, testInfo, "12-force-unlocked");

  // The audit log shows the rollback and the force-unlock.
  await page.getByRole("link", { name: "Audit log" }).click();
  await page.waitForURL(`**/settings/audit`);
  const events = page.getByRole("table", { name: "Audit events" });
  const rollbackRow = events.getByRole("row").filter({ hasText: /rollback/ }).filter({ hasText: ws }).first();
  await expect(rollbackRow).toBeVisible();
  await expect(rollbackRow).toContainText("admin@");
  await expect(events.getByRole("row").filter({ hasText: /unlock/ }).filter({ hasText: ws }).first()).toBeVisible();
  await snap(page, testInfo, "13-audit");
  consoleWatch.expectNone([/status of 423/]);
});
