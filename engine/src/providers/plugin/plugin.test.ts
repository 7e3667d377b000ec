// The plugin client against real processes: the test-only plugin in testdata/ (handshake,
// AutoMTLS, tfplugin6/5 over unix sockets and TCP) and, when one is installed on this machine, a
// real provider binary.

import { createRequire } from "node:module";
import { existsSync, readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import {
  DynamicPseudoType,
  StringType,
  formatValue,
  nullVal,
  objectVal,
  stringVal,
  unknownVal,
  type Value,
} from "../../values/index.js";
import type { Provider } from "../provider.js";
import { GRPCProvider, launchProvider, startPlugin, type PluginLogEntry, type StartPluginOptions } from "./index.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const server = path.join(here, "testdata", "plugin-server.ts");
const tsx = createRequire(import.meta.url).resolve("tsx/esm");

function testPlugin(env: Record<string, string> = {}, extra: Partial<StartPluginOptions> = {}): StartPluginOptions & { logs: PluginLogEntry[] } {
  const logs: PluginLogEntry[] = [];
  return {
    command: process.execPath,
    args: ["--import", tsx, server],
    env,
    name: "terraform-provider-test",
    handshakeTimeoutMs: 20_000,
    logSink: (e) => logs.push(e),
    logs,
    ...extra,
  };
}

const open: Provider[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

async function launch(env: Record<string, string> = {}): Promise<{ provider: GRPCProvider; logs: PluginLogEntry[] }> {
  const opts = testPlugin(env);
  const r = await launchProvider(opts);
  if (!r.ok) throw new Error(r.diagnostics.map((d) => d.detail).join("\n"));
  open.push(r.provider);
  return { provider: r.provider, logs: opts.logs };
}

const show = (v: Value): string => formatValue(v);
const thing = (input: Value, id: Value = nullVal(StringType), output: Value = nullVal(StringType)): Value => objectVal({ id, input, output });

describe("plugin client with the test plugin (tfplugin6, unix socket, AutoMTLS)", () => {
  it("runs the whole lifecycle the way the CLI does", { timeout: 60_000 }, async () => {
    const { provider, logs } = await launch();
    expect(provider.client.protocolVersion).toBe(6);
    expect(provider.client.handshake.network).toBe("unix");
    expect(provider.client.handshake.serverCertPem).toMatch(/BEGIN CERTIFICATE/);

    const schema = await provider.getProviderSchema();
    expect([...schema.resourceTypes.keys()]).toEqual(["test_thing"]);
    expect(schema.resourceTypes.get("test_thing")?.version).toBe(1);
    expect(schema.serverCapabilities).toEqual({ planDestroy: false, getProviderSchemaOptional: true, moveResourceState: false });
    expect(schema.diagnostics).toEqual([{ severity: "warning", summary: "schema warning", detail: "just so you know" }]);
    // Cached per client.
    expect(await provider.getProviderSchema()).toBe(schema);

    const bad = await provider.validateProviderConfig({ config: objectVal({ region: stringVal("bad") }) });
    expect(bad.diagnostics).toEqual([{ severity: "error", summary: "Invalid region", detail: "no such region", attribute: [{ kind: "attr", name: "region" }] }]);
    expect((await provider.configureProvider({ terraformVersion: "1.11.4", config: objectVal({ region: stringVal("eu") }) })).diagnostics).toEqual([]);

    const config = thing(stringVal("hello"));
    const plan = await provider.planResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), proposedNewState: config, config });
    expect(plan.diagnostics).toEqual([]);
    expect(show(plan.plannedState)).toBe(show(thing(stringVal("hello"), unknownVal(StringType), stringVal("hello"))));
    expect(Buffer.from(plan.plannedPrivate).toString()).toBe("p1");

    const apply = await provider.applyResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), plannedState: plan.plannedState, config, plannedPrivate: plan.plannedPrivate });
    expect(apply.diagnostics).toEqual([]);
    const state = apply.newState;
    expect(state.kind === "object" && state.attrs.get("id")?.kind).toBe("string");
    expect(state.kind === "object" && show(state.attrs.get("output") ?? state)).toBe('"hello@eu"');

    const read = await provider.readResource({ typeName: "test_thing", priorState: state, private: apply.private });
    expect(show(read.newState)).toBe(show(state));
    expect(Buffer.from(read.private).toString()).toBe("applied");

    const changed = thing(stringVal("bye"));
    const replan = await provider.planResourceChange({ typeName: "test_thing", priorState: state, proposedNewState: changed, config: changed });
    expect(replan.requiresReplace).toEqual([[{ kind: "attr", name: "input" }]]);

    // Destroy without the plan_destroy capability: planned here, not sent.
    const destroy = await provider.planResourceChange({ typeName: "test_thing", priorState: state, proposedNewState: nullVal(config.type), config: nullVal(config.type), priorPrivate: apply.private });
    expect(destroy.plannedState.kind).toBe("null");
    expect(Buffer.from(destroy.plannedPrivate).toString()).toBe("applied");

    const up = await provider.upgradeResourceState({ typeName: "test_thing", version: 0, rawStateJSON: Buffer.from('{"id":"x1","input":"a","output":"a"}') });
    expect(show(up.upgradedState)).toBe(show(thing(stringVal("a"), stringVal("x1"), stringVal("a"))));

    const imp = await provider.importResourceState({ typeName: "test_thing", id: "imp-1" });
    expect(imp.importedResources.map((r) => [r.typeName, show(r.state)])).toEqual([["test_thing", show(thing(nullVal(StringType), stringVal("imp-1")))]]);

    const data = await provider.readDataSource({ typeName: "test_echo", config: objectVal({ input: stringVal("x"), output: nullVal(StringType) }) });
    expect(show(data.state)).toBe(show(objectVal({ input: stringVal("x"), output: stringVal("x") })));

    expect(show((await provider.callFunction({ name: "upper", arguments: [stringVal("abc")] })).result)).toBe('"ABC"');
    expect((await provider.callFunction({ name: "upper", arguments: [stringVal("")] })).error).toEqual({ text: "empty string", argument: 0 });

    const unknownType = await provider.validateResourceConfig({ typeName: "test_nope", config: nullVal(DynamicPseudoType) });
    expect(unknownType.diagnostics[0]?.summary).toBe('unknown resource type "test_nope"');

    // GetFunctions is not implemented by the test plugin: the schema's functions are used.
    expect([...(await provider.getFunctions()).functions.keys()]).toEqual(["upper"]);

    await provider.close();
    expect(provider.client.exited).toEqual({ code: 0, signal: null });
    const lines = logs.map((l) => `${l.stream}: ${l.line}`);
    expect(lines).toContain("stderr: raw stderr: plugin started");
    expect(lines).toContain("stderr: stdio: hello from the plugin");
    expect(lines).toContain("stdout: stdio: some stdout");
    expect(lines).toContain("stderr: configured with terraform_version=1.11.4 write_only=true");
  });

  it("speaks protocol 5 when the plugin chooses it", { timeout: 30_000 }, async () => {
    const { provider } = await launch({ TEST_PLUGIN_PROTOCOL: "5" });
    expect(provider.client.protocolVersion).toBe(5);
    const schema = await provider.getProviderSchema();
    expect([...schema.dataSources.keys()]).toEqual(["test_echo"]);
    const bad = await provider.validateProviderConfig({ config: objectVal({ region: stringVal("bad") }) });
    expect(bad.diagnostics.map((d) => d.summary)).toEqual(["Invalid region"]);
    expect((await provider.configureProvider({ terraformVersion: "1.11.4", config: objectVal({ region: nullVal(StringType) }) })).diagnostics).toEqual([]);
    const config = thing(stringVal("v5"));
    const plan = await provider.planResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), proposedNewState: config, config });
    expect(show(plan.plannedState)).toBe(show(thing(stringVal("v5"), unknownVal(StringType), stringVal("v5"))));
    expect(await provider.stopProvider()).toBeUndefined();
  });

  it("calls functions synchronously through a second connection (protocols 6 and 5, unix socket and TCP)", { timeout: 60_000 }, async () => {
    const envs: Record<string, string>[] = [{}, { TEST_PLUGIN_PROTOCOL: "5" }, { TEST_PLUGIN_NETWORK: "tcp" }];
    for (const env of envs) {
      const { provider } = await launch(env);
      const decl = (await provider.getProviderSchema()).functions.get("upper");
      if (!decl) throw new Error("no upper function in the schema");
      // Readied ahead (as a run does) for one of them; the others connect on their first call.
      if (env["TEST_PLUGIN_NETWORK"] === "tcp") provider.prepareFunctionCalls();
      // No await: the result is there when the call returns.
      const r = provider.callFunctionSync({ name: "upper", decl, arguments: [stringVal("abc")] });
      expect(show(r.result)).toBe('"ABC"');
      expect(provider.callFunctionSync({ name: "upper", decl, arguments: [stringVal("")] }).error).toEqual({ text: "empty string", argument: 0 });
      // The asynchronous connection is undisturbed.
      expect(show((await provider.callFunction({ name: "upper", arguments: [stringVal("x")] })).result)).toBe('"X"');
      await provider.close();
      // A closed plugin fails the call with a message, never a hang.
      const after = provider.callFunctionSync({ name: "upper", decl, arguments: [stringVal("abc")] });
      expect(after.error?.text).toMatch(/failed to respond|Unavailable/);
    }
  });

  it("connects over TCP", { timeout: 30_000 }, async () => {
    const { provider } = await launch({ TEST_PLUGIN_NETWORK: "tcp" });
    expect(provider.client.handshake.network).toBe("tcp");
    expect((await provider.getProviderSchema()).resourceTypes.has("test_thing")).toBe(true);
  });

  it("turns a crash during a call into OpenTofu's diagnostic with the plugin's last output", { timeout: 30_000 }, async () => {
    const { provider } = await launch({ TEST_PLUGIN_MODE: "crash-on-apply" });
    const config = thing(stringVal("boom"));
    const plan = await provider.planResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), proposedNewState: config, config });
    const apply = await provider.applyResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), plannedState: plan.plannedState, config });
    expect(apply.diagnostics).toHaveLength(1);
    const d = apply.diagnostics[0];
    expect(d?.summary).toBe("Plugin did not respond");
    expect(d?.detail).toContain(
      "The plugin encountered an error, and failed to respond to the plugin6.(*GRPCProvider).ApplyResourceChange call. The plugin logs may contain more details.",
    );
    expect(d?.detail).toContain("The plugin terraform-provider-test exited with status 2. Its last output was:");
    expect(d?.detail).toContain("panic: runtime error: invalid memory address or nil pointer dereference");
    // Later calls fail the same way at once.
    const again = await provider.readResource({ typeName: "test_thing", priorState: plan.plannedState });
    expect(again.diagnostics[0]?.detail).toContain("failed to respond to the plugin6.(*GRPCProvider).ReadResource call");
  });

  it("reports a gRPC error status in OpenTofu's words (grpc-go's code names)", { timeout: 30_000 }, async () => {
    const { provider } = await launch();
    const r = await provider.readDataSource({ typeName: "test_echo", config: objectVal({ input: stringVal("fail"), output: nullVal(StringType) }) });
    expect(r.diagnostics).toEqual([
      {
        severity: "error",
        summary: "Plugin error",
        detail: "The plugin returned an unexpected error from plugin6.(*GRPCProvider).ReadDataSource: rpc error: code = Internal desc = data source exploded",
      },
    ]);
    // The connection is still good for the next call.
    const ok = await provider.readDataSource({ typeName: "test_echo", config: objectVal({ input: stringVal("x"), output: nullVal(StringType) }) });
    expect(ok.diagnostics).toEqual([]);
  });

  it("forwards cancellation as StopProvider", { timeout: 30_000 }, async () => {
    const { provider, logs } = await launch();
    await provider.configureProvider({ terraformVersion: "1.11.4", config: objectVal({ region: nullVal(StringType) }) });
    const config = thing(stringVal("slow"));
    const ac = new AbortController();
    const pending = provider.applyResourceChange({ typeName: "test_thing", priorState: nullVal(config.type), plannedState: config, config, signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    const r = await pending;
    expect(r.diagnostics).toEqual([{ severity: "error", summary: "Interrupted", detail: "stopped by StopProvider" }]);
    expect(logs.some((l) => l.line === "stop called (1)")).toBe(true);
  });
});

describe("plugin start failures", () => {
  it("rejects a non-plugin executable with go-plugin's message", { timeout: 30_000 }, async () => {
    const r = await startPlugin(testPlugin({ TEST_PLUGIN_MODE: "garbage" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain("Unrecognized remote plugin message: fake provider 1.2.0\n\nThis usually means that the plugin is either invalid or simply\nneeds to be recompiled to support the latest protocol.");
  });

  it("reports a plugin that exits before the handshake, with its stderr", { timeout: 30_000 }, async () => {
    const r = await startPlugin(testPlugin({ TEST_PLUGIN_MODE: "exit-early" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toBe("plugin exited before we could connect (exit status 3)\n\nThe plugin's output:\ncannot start: missing credentials");
  });

  it("times out a plugin that never completes the handshake", { timeout: 45_000 }, async () => {
    // Long enough for the Node test plugin to start even on a loaded machine, so its output shows.
    const r = await startPlugin(testPlugin({ TEST_PLUGIN_MODE: "hang" }, { handshakeTimeoutMs: 12_000 }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatch(/^timeout while waiting for plugin to start/);
    expect(r.error).toContain("thinking...");
  });

  it("refuses a plaintext plugin when AutoMTLS was requested", { timeout: 30_000 }, async () => {
    const r = await startPlugin(testPlugin({ TEST_PLUGIN_MODE: "plaintext" }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain("did not offer a TLS certificate");
  });

  it("talks plaintext when AutoMTLS is off", { timeout: 30_000 }, async () => {
    const r = await launchProvider(testPlugin({ TEST_PLUGIN_MODE: "plaintext" }, { autoMTLS: false }));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    open.push(r.provider);
    expect(r.provider.client.handshake.serverCertPem).toBeUndefined();
    expect((await r.provider.getProviderSchema()).resourceTypes.has("test_thing")).toBe(true);
  });

  it("reports a missing executable", async () => {
    const r = await launchProvider({ command: "/nonexistent/terraform-provider-nope", providerAddr: "registry.opentofu.org/hashicorp/nope" });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.diagnostics[0]?.summary).toBe("Failed to instantiate provider");
    expect(r.diagnostics[0]?.detail).toContain('Could not start provider "registry.opentofu.org/hashicorp/nope": failed to start plugin terraform-provider-nope: spawn /nonexistent/terraform-provider-nope ENOENT');
  });
});

/** A real provider binary on this machine, if any (plugin cache dirs, mirrors). */
function findRealProvider(): string | undefined {
  const roots = [path.join(os.homedir(), ".terraform.d", "plugins"), "/usr/local/share/terraform/plugins", "/usr/share/terraform/plugins", process.env["TF_PLUGIN_CACHE_DIR"] ?? ""].filter(Boolean);
  const walk = (dir: string, depth: number): string | undefined => {
    if (depth > 7 || !existsSync(dir)) return undefined;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = statSync(p);
      if (st.isDirectory()) {
        const found = walk(p, depth + 1);
        if (found) return found;
      } else if (name.startsWith("terraform-provider-") && st.size > 1_000_000 && (st.mode & 0o111) !== 0) return p;
    }
    return undefined;
  };
  for (const r of roots) {
    const found = walk(r, 0);
    if (found) return found;
  }
  return undefined;
}

const realProvider = findRealProvider();
if (!realProvider) {
  console.log("skipping the real-provider test: no provider binary under ~/.terraform.d/plugins, /usr/local/share/terraform/plugins, /usr/share/terraform/plugins or TF_PLUGIN_CACHE_DIR");
}

describe.skipIf(!realProvider)("a real provider binary", () => {
  it("handshakes, returns its schema and shuts down cleanly", { timeout: 60_000 }, async () => {
    const r = await launchProvider({ command: realProvider ?? "", handshakeTimeoutMs: 30_000 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const schema = await r.provider.getProviderSchema();
    expect(schema.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(schema.resourceTypes.size + schema.dataSources.size).toBeGreaterThan(0);
    await r.provider.close();
    expect(r.provider.client.exited?.signal).toBeNull();
  });
});
