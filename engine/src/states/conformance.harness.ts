// The conformance harness for area "C" (OpenTofu cases 020–022: state snapshot format v4), used by
// scripts/conformance.mjs and by conformance.test.ts. Each case directory is read in place from
// ../shared/conformance; the expectations below restate the case's expect.md as checks of
// got-versus-want. Node-only (reads the real file system), so it is not part of the states public
// surface.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { instanceKeyString, mustParseModuleInstanceStr } from "../addrs/index.js";
import { caseResult, check, harnessError, type CaseResult, type Check } from "../conformance.testkit.js";
import { readStateFile, statesEqual, writeStateFile, type File, type ReadResult } from "./index.js";

export type { CaseResult, Check } from "../conformance.testkit.js";

interface Diag {
  severity: string;
  summary: string;
  detail: string;
}

const UNSUPPORTED = "Unsupported state file format";

function read(p: string): ReadResult {
  return readStateFile(readFileSync(p));
}

function mustRead(p: string): File {
  const r = read(p);
  if (r.kind !== "ok") throw new Error(`${path.basename(p)}: expected a state, got ${JSON.stringify(r)}`);
  return r.file;
}

function diagsOf(r: ReadResult): Diag[] {
  if (r.kind === "no-state") return [];
  return r.diagnostics.map((d) => ({ severity: d.severity, summary: d.summary, detail: d.detail }));
}

function errorsOf(r: ReadResult): Array<{ summary: string; detail: string }> {
  return diagsOf(r)
    .filter((d) => d.severity === "error")
    .map((d) => ({ summary: d.summary, detail: d.detail }));
}

/** The written text (terraform_version left as read), or the write's diagnostics. */
function written(f: File): string {
  const w = writeStateFile(f, { terraformVersion: undefined });
  if (!w.ok) throw new Error(`write failed: ${w.diagnostics.map((d) => `${d.summary}; ${d.detail}`).join("\n")}`);
  return w.text;
}

// 020: the upstream v4 fixtures read, write, and read back equal to their .out counterparts.
function case020(dir: string): Check[] {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith(".in.tfstate"))
    .map((f) => f.slice(0, -".in.tfstate".length))
    .sort();
  const checks: Check[] = [{ name: "the 8 upstream fixture pairs", got: names.length, want: 8 }];
  for (const name of names) {
    checks.push(
      check(`${name}: written, read back, equals ${name}.out.tfstate`, { serial: true, lineage: true, state: true }, () => {
        const text = written(mustRead(path.join(dir, `${name}.in.tfstate`)));
        const again = readStateFile(text);
        if (again.kind !== "ok") throw new Error(`reading the written state: ${JSON.stringify(again)}`);
        const want = mustRead(path.join(dir, `${name}.out.tfstate`));
        return { serial: again.file.serial === want.serial, lineage: again.file.lineage === want.lineage, state: statesEqual(again.file.state, want.state) };
      }),
      check(`${name}: writing is a fixed point`, true, () => {
        const text = written(mustRead(path.join(dir, `${name}.in.tfstate`)));
        const again = readStateFile(text);
        if (again.kind !== "ok") throw new Error("reading the written state failed");
        return written(again.file) === text;
      }),
      check(`${name}: "each" is never written`, false, () => written(mustRead(path.join(dir, `${name}.in.tfstate`))).includes('"each"')),
    );
  }
  checks.push(
    check("v4-modules: the duplicated dependencies key keeps the last value", ["var.input"], () => {
      const f = mustRead(path.join(dir, "v4-modules.in.tfstate"));
      const obj = f.state.module(mustParseModuleInstanceStr("module.modA"))?.resources.get("null_resource.resource")?.instances.get("")?.current;
      return obj?.dependencies.map(String);
    }),
    check(
      "v4-legacy-simple: legacy provider strings are normalised",
      [
        'data.terraform_remote_state.random provider["terraform.io/builtin/terraform"]',
        'null_resource.bar provider["registry.opentofu.org/-/null"]',
        'null_resource.foo provider["registry.opentofu.org/-/null"]',
      ],
      () => {
        const f = mustRead(path.join(dir, "v4-legacy-simple.in.tfstate"));
        return [...f.state.allResources()].map((r) => `${r.addr.toString()} ${r.providerConfig?.toString()}`).sort();
      },
    ),
    check("v4-legacy-modules: legacy provider strings in modules are normalised", 'provider["registry.opentofu.org/-/null"]', () => {
      const m = mustRead(path.join(dir, "v4-legacy-modules.in.tfstate"));
      return m.state.module(mustParseModuleInstanceStr("module.modB"))?.resources.get("null_resource.bar")?.providerConfig?.toString();
    }),
    check("v4-foreach: private stays raw bytes", "null", () => {
      const f = mustRead(path.join(dir, "v4-foreach.in.tfstate"));
      const obj = [...f.state.allResources()][0]?.instances.get("")?.current;
      return new TextDecoder().decode(obj?.private);
    }),
  );
  return checks;
}

// 021: provider addresses at resource and instance level.
function case021(dir: string): Check[] {
  const file = (n: string): string => path.join(dir, n);
  const fileJSON = (n: string): unknown => JSON.parse(readFileSync(file(n), "utf8"));
  return [
    check(
      "a-keyed-valid: resource provider and per-instance keys",
      {
        provider: 'module.example.provider["registry.opentofu.org/hashicorp/aws"].by_region',
        instances: ['["first"]=["us-west-2"]', '["second"]=["eu-east-1"]'],
      },
      () => {
        const rs = [...mustRead(file("a-keyed-valid.tfstate")).state.allResources()][0];
        return {
          provider: rs?.providerConfig?.toString(),
          instances: [...(rs?.instances.values() ?? [])].map((i) => `${instanceKeyString(i.key)}=${instanceKeyString(i.providerKey)}`),
        };
      },
    ),
    check("a-keyed-valid: written back as read", fileJSON("a-keyed-valid.tfstate"), () => JSON.parse(written(mustRead(file("a-keyed-valid.tfstate"))))),
    check(
      "b-both-levels-warning: read with one warning",
      {
        kind: "ok",
        diagnostics: [
          {
            severity: "warning",
            summary: "Provider field conflict in state",
            detail:
              'Resource test_object.a has a provider address provider["registry.opentofu.org/hashicorp/test"].multi, as well as instance ["a"] with provider address provider["registry.opentofu.org/hashicorp/test"].multi["a"].',
          },
        ],
        providerKey: '["a"]',
      },
      () => {
        const r = read(file("b-both-levels-warning.tfstate"));
        const is = r.kind === "ok" ? [...r.file.state.allResources()][0]?.instances.get('["a"]') : undefined;
        return { kind: r.kind, diagnostics: diagsOf(r), providerKey: is && instanceKeyString(is.providerKey) };
      },
    ),
    check(
      "c-missing-provider-error",
      [{ summary: "Provider field missing state", detail: "Resource test_object.a is missing a provider address, both on the resource and the resource instances." }],
      () => errorsOf(read(file("c-missing-provider-error.tfstate"))),
    ),
    check(
      "d-different-configs-error",
      [
        {
          summary: "Provider instance field conflict in state",
          detail:
            'Resource test_object.a has instances with different provider addresses: "provider[\\"registry.opentofu.org/hashicorp/test\\"].one" != "provider[\\"registry.opentofu.org/hashicorp/test\\"].two".',
        },
      ],
      () => errorsOf(read(file("d-different-configs-error.tfstate"))),
    ),
    check(
      "e-resource-level-key-error",
      [{ summary: "Invalid provider configuration address", detail: "A provider address must not include an instance key." }],
      () => errorsOf(read(file("e-resource-level-key-error.tfstate"))),
    ),
    check("f-mixed-keys-and-deposed: keys and the tainted deposed object", { x: "", y: '["b"]', deposed: "tainted" }, () => {
      const rs = [...mustRead(file("f-mixed-keys-and-deposed.tfstate")).state.allResources()][0];
      const x = rs?.instances.get('["x"]');
      const y = rs?.instances.get('["y"]');
      return { x: x && instanceKeyString(x.providerKey), y: y && instanceKeyString(y.providerKey), deposed: y?.deposed.get("00000001")?.status };
    }),
    check("f-mixed-keys-and-deposed: written back as read", fileJSON("f-mixed-keys-and-deposed.tfstate"), () =>
      JSON.parse(written(mustRead(file("f-mixed-keys-and-deposed.tfstate")))),
    ),
    check("g-no-keys-resource-level: byte-exact write", readFileSync(file("g-no-keys-resource-level.expected-written.tfstate"), "utf8"), () =>
      written(mustRead(file("g-no-keys-resource-level.tfstate"))),
    ),
  ];
}

// 022: the reader's format errors, and the writer's exact output.
function case022(dir: string): Check[] {
  const file = (n: string): string => path.join(dir, n);
  const first = (n: string): { summary: string; detail: string } | undefined => errorsOf(read(file(n)))[0];
  const unsupported = (detail: string): { summary: string; detail: string } => ({ summary: UNSUPPORTED, detail });
  return [
    check("empty.tfstate: no state", "no-state", () => read(file("empty.tfstate")).kind),
    check(
      "syntax-error.tfstate",
      unsupported(`The state file could not be parsed as JSON: syntax error at byte offset ${readFileSync(file("syntax-error.tfstate")).length}.`),
      () => first("syntax-error.tfstate"),
    ),
    check("version-not-number.tfstate", unsupported("The version in the state file is string. A positive whole number is required."), () =>
      first("version-not-number.tfstate"),
    ),
    check(
      "no-version.tfstate",
      unsupported('The state file does not have a "version" attribute, which is required to identify the format version.'),
      () => first("no-version.tfstate"),
    ),
    check(
      "v0.tfstate",
      unsupported(
        "The state file uses JSON syntax but has a version number of zero. There was never a JSON-based state format zero, so this state file is invalid and cannot be processed.",
      ),
      () => first("v0.tfstate"),
    ),
    check(
      "v3-with-creator.tfstate",
      unsupported("The state file uses format version 3, which is not supported by OpenTofu 1.11.0. This state file was created by OpenTofu 0.11.14."),
      () => first("v3-with-creator.tfstate"),
    ),
    check(
      "v5-no-creator.tfstate",
      unsupported(
        "The state file uses format version 5, which is not supported by OpenTofu 1.11.0. This state file may have been created by a newer version of OpenTofu.",
      ),
      () => first("v5-no-creator.tfstate"),
    ),
    check("an encrypted envelope", "This state file is encrypted and can not be read without an encryption configuration", () =>
      errorsOf(readStateFile('{"encryption_version":"v0","meta":{},"encrypted_data":""}'))[0]?.detail,
    ),
    check("writer-output-example.tfstate is reproduced byte for byte", readFileSync(file("writer-output-example.tfstate"), "utf8"), () =>
      written(mustRead(file("writer-output-example.tfstate"))),
    ),
  ];
}

const CASES: Record<string, (dir: string) => Check[]> = { "020": case020, "021": case021, "022": case022 };

/** The checks for one case directory, or undefined when this harness does not handle the case. */
export function stateCaseChecks(dir: string): Check[] | undefined {
  return CASES[path.basename(dir).slice(0, 3)]?.(dir);
}

/** Runs one case directory: ok when every check's got deep-equals its want. */
export function runStateCase(dir: string): CaseResult {
  let checks: Check[] | undefined;
  try {
    checks = stateCaseChecks(dir);
  } catch (e) {
    return harnessError(e);
  }
  return caseResult("state", dir, checks);
}
