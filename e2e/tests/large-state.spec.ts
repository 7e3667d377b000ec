// A 20,000-instance state must not freeze the page: the instance list is virtualised (only a
// window of rows in the DOM) and rows load from the server in pages as they scroll into view.
import { expect, test } from "@playwright/test";
import { ORG, watchConsole, newLineage, pushState, signIn, snap, stateV4, type Resource } from "./support";

const COUNT = 20_000;

function bigState(lineage: string, serial = 1, ami = (_m: number) => "ami-123") {
  const resources: Resource[] = [];
  // 40 modules × 500 instances, each instance with its own provider instance.
  for (let m = 0; m < 40; m++) {
    resources.push({
      module: `module.shard["s${String(m).padStart(2, "0")}"]`,
      type: "aws_instance",
      name: "node",
      each: "list",
      instances: Array.from({ length: COUNT / 40 }, (_, i) => ({
        index_key: i,
        provider: `provider["registry.terraform.io/hashicorp/aws"].by_region["r${i % 4}"]`,
        attributes: { id: `i-${m}-${i}`, ami: ami(m), tags: { n: String(i) } },
      })),
    });
  }
  return stateV4(serial, lineage, resources);
}

test("a 20,000-instance state scrolls without rendering every row", async ({ page, request }, testInfo) => {
  test.setTimeout(180_000);
  const ws = `e2e-big-${Date.now().toString(36)}`;
  const consoleWatch = watchConsole(page);
  const lineage = newLineage();
  await pushState(request, ws, bigState(lineage));

  await signIn(page);
  const opened = Date.now();
  await page.goto(`/app/${ORG}/workspaces/${ws}/states/1`);
  const list = page.getByRole("table", { name: "Resource instances" });
  await expect(list).toHaveAttribute("aria-rowcount", String(COUNT + 1), { timeout: 30_000 });
  await expect(list.getByRole("button", { name: "aws_instance.node[0]" }).first()).toBeVisible();
  const firstRowsMs = Date.now() - opened;
  const inDom = await list.getByRole("row").count();
  expect(inDom).toBeLessThan(150);
  await snap(page, testInfo, "big-01-top");

  // Scroll with the mouse wheel like a person would, watching for main-thread tasks long enough
  // to be felt as a freeze.
  await page.evaluate(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__longTasks.push(e.duration))).observe({ type: "longtask", buffered: false });
  });
  await page.getByTestId("instance-scroll").hover();
  for (let i = 0; i < 40; i++) await page.mouse.wheel(0, 1200);
  await expect.poll(() => page.getByTestId("instance-scroll").evaluate((el) => el.scrollTop)).toBeGreaterThan(20_000);
  await expect(list.getByRole("row").filter({ hasText: "Loading…" })).toHaveCount(0, { timeout: 15_000 });
  const longTasks = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);
  const worstTaskMs = Math.round(Math.max(0, ...longTasks));
  testInfo.annotations.push({ type: "measure", description: `first rows ${firstRowsMs} ms; wheel-scrolling 48,000 px: ${longTasks.length} long tasks, worst ${worstTaskMs} ms` });
  console.log(`[large-state] first rows after ${firstRowsMs} ms; while scrolling ${longTasks.length} long tasks, worst ${worstTaskMs} ms`);
  expect(worstTaskMs).toBeLessThan(500);
  expect(await list.getByRole("row").count()).toBeLessThan(150);

  // Scroll far down: rows there load and render, the DOM stays small, the page answers at once.
  const scroller = page.getByTestId("instance-scroll");
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight * 0.75));
  const maxRowIndex = () =>
    list.evaluate((el) => Math.max(0, ...Array.from(el.querySelectorAll("[role=row][aria-rowindex]")).map((r) => Number(r.getAttribute("aria-rowindex")))));
  await expect.poll(maxRowIndex, { timeout: 15_000 }).toBeGreaterThan(14_000);
  await expect(list.getByRole("row").filter({ hasText: "Loading…" })).toHaveCount(0, { timeout: 15_000 });
  expect(await list.getByRole("row").count()).toBeLessThan(150);
  const started = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
  expect(Date.now() - started).toBeLessThan(1000);
  await expect(list).toContainText(/module\.shard\["s(29|30)"\]/);
  await snap(page, testInfo, "big-02-scrolled");

  // The end of the list is reachable.
  await scroller.evaluate((el) => (el.scrollTop = el.scrollHeight));
  await expect(list.getByRole("button", { name: "aws_instance.node[499]" })).toBeVisible({ timeout: 15_000 });
  expect(await list.getByRole("row").count()).toBeLessThan(150);
  await snap(page, testInfo, "big-03-end");

  // Version 2 changes the AMI of every instance in the even shards: 10,000 changed instances.
  await pushState(request, ws, bigState(lineage, 2, (m) => (m % 2 === 0 ? "ami-456" : "ami-123")));
  await page.goto(`/app/${ORG}/workspaces/${ws}/states/diff?from=1&to=2`);
  const summary = page.getByLabel("Summary");
  await expect(summary).toContainText("10,000 changed", { timeout: 30_000 });
  const changes = page.getByRole("list", { name: "Instance changes" });
  await expect(changes.getByRole("listitem", { name: 'changed module.shard["s00"].aws_instance.node[0]' })).toBeVisible();
  await expect(changes.getByRole("listitem", { name: 'changed module.shard["s00"].aws_instance.node[0]' })).toContainText('"ami-456"');
  expect(await changes.locator(".diff-row").count()).toBeLessThan(80);
  await page.getByTestId("diff-scroll").evaluate((el) => (el.scrollTop = el.scrollHeight / 2));
  await expect(changes.locator(".diff-row.placeholder")).toHaveCount(0, { timeout: 15_000 });
  await expect(changes).toContainText(/module\.shard\["s(18|20|22)"\]/);
  expect(await changes.locator(".diff-row").count()).toBeLessThan(80);
  await snap(page, testInfo, "big-04-diff");
  consoleWatch.expectNone();
});
