import { describe, expect, it } from "vitest";
import { AbsProviderConfig, NoKey, RootModule, newDefaultProvider } from "../addrs/index.js";
import { Loader, MemoryFS } from "../configs/index.js";
import type { ProviderFactory } from "../core/index.js";
import { attribute, block, type Provider } from "../providers/index.js";
import { StringType, stringVal } from "../values/index.js";
import { schemaOnlyProvider } from "./conformance.harness.js";
import { UnconfiguredProviders, runProviderHooks } from "./factory.js";
import { decodeTestFile } from "./file.js";
import { applyTestProviders } from "./providers.js";

const AWS = newDefaultProvider("aws");

/** Real aws instances that record what is asked of them. */
function recordingFactory(): { factory: ProviderFactory; calls: string[] } {
  const calls: string[] = [];
  let started = 0;
  const factory: ProviderFactory = async () => {
    const n = ++started;
    calls.push(`start ${n}`);
    const base = schemaOnlyProvider(new Map([["aws_instance", { version: 0, block: block({ ami: attribute({ type: StringType, optional: true }) }) }]]));
    const provider: Provider = {
      ...base,
      configureProvider: async () => {
        calls.push(`configure ${n}`);
        return { diagnostics: [] };
      },
      validateResourceConfig: async (req) => {
        calls.push(`validate ${req.typeName} on ${n}`);
        return { diagnostics: [{ severity: "error", summary: "Invalid ami", detail: "from the real provider" }] };
      },
      callFunction: async (req) => {
        calls.push(`call ${req.name} on ${n}`);
        const [arg] = req.arguments;
        return { result: stringVal(arg?.kind === "string" ? arg.value.toUpperCase() : "") };
      },
      close: async () => void calls.push(`close ${n}`),
    };
    return { ok: true, provider };
  };
  return { factory, calls };
}

function mockedRun() {
  const fs = new MemoryFS({
    "main.tf": 'terraform {\n  required_providers {\n    aws = { source = "hashicorp/aws" }\n  }\n}\nprovider "aws" {\n  region = "x"\n}\n',
  });
  const loaded = new Loader({ fs, workingDir: "." }).loadConfig(".");
  if (!loaded.config) throw new Error("module did not load");
  const file = decodeTestFile("main.tftest.hcl", 'mock_provider "aws" {}\nrun "a" {}\n').file;
  expect(applyTestProviders(loaded.config, file.providers, () => [])).toEqual([]);
  return { config: loaded.config, providers: file.providers };
}

describe("a mocked provider configuration", () => {
  it("answers provider functions and validation through the real provider, which it never configures", async () => {
    const { factory, calls } = recordingFactory();
    const { config, providers } = mockedRun();
    const unconfigured = new UnconfiguredProviders(factory);
    const hooks = runProviderHooks(config, providers, new Map(), factory, unconfigured);

    const started = await hooks.factory(AWS, { config: new AbsProviderConfig(RootModule, AWS, ""), key: NoKey });
    if (!started.ok) throw new Error("no mocked instance");
    expect(started.preconfigured).toBe(true);
    const r = await started.provider.callFunction({ name: "upper", arguments: [stringVal("eu")] });
    expect(r).toEqual({ result: stringVal("EU") });
    const v = await started.provider.validateResourceConfig({ typeName: "aws_instance", config: stringVal("") });
    expect(v.diagnostics.map((d) => d.summary)).toEqual(["Invalid ami"]);

    // The start core makes for schemas and validation is the real provider too, never handed a configuration.
    const forSchema = await hooks.factory(AWS);
    if (!forSchema.ok) throw new Error("no schema instance");
    expect(forSchema.reusable).toBe(false);

    // Closing a run's instances leaves the shared one running until the command ends.
    await started.provider.close();
    await forSchema.provider.close();
    expect(calls).toEqual(["start 1", "call upper on 1", "validate aws_instance on 1"]);
    await unconfigured.close();
    expect(calls).toEqual(["start 1", "call upper on 1", "validate aws_instance on 1", "close 1"]);
  });
});
