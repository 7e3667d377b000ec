// Shared pieces of the browser tests: the admin given by scripts/test.mjs, signing in, pushing
// state through the CLI's own endpoint (with Content-MD5, as terraform sends it), screenshots.
import { createHash, randomUUID } from "node:crypto";
import { expect, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";

function env(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the browser tests with \`npm test -- --only=e2e\``);
  return v;
}

export const admin = {
  get email() {
    return env("TERRACE_TEST_ADMIN_EMAIL");
  },
  get password() {
    return env("TERRACE_TEST_ADMIN_PASSWORD");
  },
  get token() {
    return env("TERRACE_TEST_ADMIN_TOKEN");
  },
};
export const ORG = "default";

export async function signIn(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(admin.email);
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(`**/app/${ORG}/workspaces`);
}

/** A full-page screenshot attached to the test report and kept under e2e/artifacts. */
export async function snap(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

export type Instance = { index_key?: string | number; provider?: string; attributes: Record<string, unknown>; sensitive_attributes?: unknown[] };
export type Resource = { module?: string; mode?: "managed" | "data"; type: string; name: string; each?: "list" | "map"; provider?: string; instances: Instance[] };

export function stateV4(serial: number, lineage: string, resources: Resource[], outputs: Record<string, { value: unknown; type: unknown; sensitive?: boolean }> = {}) {
  return {
    version: 4,
    terraform_version: "1.11.4",
    serial,
    lineage,
    outputs,
    resources: resources.map((r) => ({
      ...(r.module ? { module: r.module } : {}),
      mode: r.mode ?? "managed",
      type: r.type,
      name: r.name,
      ...(r.each ? { each: r.each } : {}),
      ...(r.provider ? { provider: r.provider } : {}),
      instances: r.instances.map((i) => ({ schema_version: 0, sensitive_attributes: [], ...i })),
    })),
    check_results: null,
  };
}

export const newLineage = () => randomUUID();

/** POST a state to /api/v1/state/<org>/<ws> as `terraform` does (no lock), with the admin's token. */
export async function pushState(request: APIRequestContext, ws: string, state: unknown) {
  const body = JSON.stringify(state);
  const res = await request.post(`/api/v1/state/${ORG}/${encodeURIComponent(ws)}`, {
    headers: {
      Authorization: `Bearer ${admin.token}`,
      "Content-Type": "application/json",
      "Content-MD5": createHash("md5").update(body).digest("base64"),
    },
    data: body,
  });
  expect(res.status(), await res.text()).toBeLessThan(300);
}

/**
 * Collects uncaught page errors and console errors (hydration mismatches, React warnings, failed
 * requests); a test calls `expectNone()` at its end.
 */
export function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  return {
    /** `expected`: messages a test provokes on purpose (a refused request logs its status). */
    expectNone: (expected: RegExp[] = []) => expect(problems.filter((p) => !expected.some((r) => r.test(p)))).toEqual([]),
  };
}
