// The conformance harness for area "A" (OpenTofu cases 001–009: provider configuration and
// provider for_each at configuration level), used by scripts/conformance.mjs and by
// provider_validation.conformance.test.ts. Each case directory is read in place from
// ../shared/conformance; the expectations below restate the case's expect.md. Node-only (reads
// the real file system), so it is not part of the configs public surface.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { instanceKeyString, parseAbsProviderConfigInstanceStr, type InstanceKey } from "../addrs/index.js";
import { formatRange, type Diagnostic } from "../hcl/index.js";
import type { CaseResult } from "../conformance.testkit.js";
import { rangeText } from "./diag.testkit.js";
import { Loader } from "./loader.js";
import { nodeFS } from "./nodefs.testkit.js";
import { Parser } from "./parser.js";

export type { CaseResult } from "../conformance.testkit.js";

const pass = (message = "ok"): CaseResult => ({ ok: true, message });
const fail = (message: string): CaseResult => ({ ok: false, message });

/** A diagnostic as expected: summary exact; detail exact or by prefix; subject as "l:c-l:c". */
interface Want {
  severity: "error" | "warning";
  summary: string;
  detail?: string;
  detailPrefix?: string;
  detailSuffix?: string;
  subject?: string;
}

function load(dir: string): Diagnostic[] {
  const loader = new Loader({ fs: nodeFS(), workingDir: dir });
  return loader.loadConfig(dir).diagnostics;
}

function show(d: Diagnostic): string {
  return `${d.severity} ${d.subject ? formatRange(d.subject) : "(no subject)"}: ${d.summary}; ${d.detail}`;
}

function matches(d: Diagnostic, w: Want): boolean {
  if (d.severity !== w.severity || d.summary !== w.summary) return false;
  if (w.detail !== undefined && d.detail !== w.detail) return false;
  if (w.detailPrefix !== undefined && !d.detail.startsWith(w.detailPrefix)) return false;
  if (w.detailSuffix !== undefined && !d.detail.endsWith(w.detailSuffix)) return false;
  if (w.subject !== undefined && rangeText(d.subject) !== w.subject) return false;
  return true;
}

/** Every wanted diagnostic matched once, in any order; `optional` ones may also appear. */
function expectDiagnostics(label: string, got: readonly Diagnostic[], want: readonly Want[], optional: readonly Want[] = []): CaseResult {
  const left = [...got];
  for (const w of want) {
    const i = left.findIndex((d) => matches(d, w));
    if (i < 0) return fail(`${label}: missing ${w.severity} "${w.summary}"${w.subject ? ` at ${w.subject}` : ""}; got:\n${got.map(show).join("\n")}`);
    left.splice(i, 1);
  }
  const extra = left.filter((d) => !optional.some((w) => matches(d, w)));
  if (extra.length > 0) return fail(`${label}: unexpected diagnostics:\n${extra.map(show).join("\n")}`);
  return pass();
}

function all(results: readonly CaseResult[]): CaseResult {
  const bad = results.filter((r) => !r.ok);
  return bad.length > 0 ? fail(bad.map((r) => r.message).join("\n")) : pass(`${results.length} checks`);
}

export const FOR_EACH_WARNING_FIRST =
  "This provider configuration uses the same for_each expression as a resource, which means that subsequent removal of elements from this collection would cause a planning error.";

function forEachWarningDetail(blockType: string, addr: string): string {
  return `This provider configuration uses the same for_each expression as a ${blockType}, which means that subsequent removal of elements from this collection would cause a planning error.\n\nOpenTofu relies on a provider instance to destroy resource instances that are associated with it, and so the provider instance must outlive all of its resource instances by at least one plan/apply round. For removal of instances to succeed in future you must structure the configuration so that the provider block's for_each expression can produce a superset of the instances of the resources associated with the provider configuration. Refer to the OpenTofu documentation for specific suggestions.\n\nTo destroy this object before removing the provider configuration, consider first performing a targeted destroy:\n    tofu apply -destroy -target=${addr}`;
}

/** 001: five "matches resource" warnings, each line of warnings.expected a substring of the diagnostic as Go prints it. */
function case001(dir: string): CaseResult {
  const diags = load(dir);
  const lines = readFileSync(path.join(dir, "warnings.expected"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => l.replace("testdata/config-diagnostics/provider-foreach/", ""));
  if (diags.some((d) => d.severity === "error")) return fail(`unexpected errors:\n${diags.map(show).join("\n")}`);
  if (diags.length !== lines.length) return fail(`want ${lines.length} warnings, got ${diags.length}:\n${diags.map(show).join("\n")}`);
  const printed = diags.map((d) => `${d.subject ? path.basename(formatRange(d.subject)) : ""}: ${d.summary}; ${d.detail}`);
  for (const line of lines) {
    if (!printed.some((p) => p.includes(line))) return fail(`no warning matches ${JSON.stringify(line)}; got:\n${printed.join("\n")}`);
  }
  const addrs = ["value", "parens", "cond", "op", "for"].map((n) => `null_resource.${n}`);
  return expectDiagnostics(
    "001",
    diags,
    addrs.map((a) => ({ severity: "warning", summary: "Provider configuration for_each matches resource", detail: forEachWarningDetail("resource", a) })),
  );
}

const NOT_DECLARED = 'This module doesn\'t declare a provider "dumme" block with alias = "key", which is required for use with for_each.';

function case002(dir: string): CaseResult {
  return expectDiagnostics("002", load(dir), [
    { severity: "warning", summary: "Provider configuration for_each matches module", detail: forEachWarningDetail("module", "module.mod_warning"), subject: "26:14-26:22" },
    { severity: "warning", summary: "Provider configuration for_each matches resource", detail: forEachWarningDetail("resource", "dummy_warning.test"), subject: "19:14-19:22" },
    { severity: "error", summary: "Invalid module provider configuration", detail: NOT_DECLARED, subject: "42:17-42:22" },
    { severity: "error", summary: "Invalid resource provider configuration", detail: NOT_DECLARED, subject: "34:14-34:19" },
  ]);
}

function case003(dir: string): CaseResult {
  const parser = new Parser(nodeFS());
  const file = parser.loadConfigFile(path.join(dir, "provider-configs.tf"));
  const tree = load(dir);
  return all([expectDiagnostics("003 file", file.diagnostics, []), expectDiagnostics("003 config", tree, [])]);
}

function case004(dir: string): CaseResult {
  return expectDiagnostics("004", load(dir), [
    {
      severity: "error",
      summary: 'Alias required when using "for_each"',
      detail: "The for_each argument is allowed only for provider configurations with an alias.",
      subject: "2:14-2:31",
    },
  ]);
}

const COLLECTION = "A reference to a provider configuration which uses for_each requires an instance key. Passing a collection of provider instances into a child module is not allowed.";

function case005(dir: string): CaseResult {
  const sub = (name: string) => path.join(dir, name);
  return all([
    expectDiagnostics(
      "005 a-key-without-alias",
      load(sub("a-key-without-alias")),
      [
        {
          severity: "error",
          summary: "Invalid provider configuration reference",
          detail: "Provider assignment requires an alias when specifying an instance key, in the form of provider.name[instance_key]",
        },
      ],
      [
        {
          severity: "error",
          summary: "Invalid resource provider configuration",
          detail: "An instance key can be specified only for a provider configuration which has an alias and uses for_each.",
        },
      ],
    ),
    expectDiagnostics("005 b-key-on-non-foreach-provider", load(sub("b-key-on-non-foreach-provider")), [
      {
        severity: "error",
        summary: "Invalid resource provider configuration",
        detail: "An instance key can be specified only for a provider configuration that uses for_each.",
        subject: "8:26-8:34",
      },
    ]),
    expectDiagnostics("005 c-collection-without-key", load(sub("c-collection-without-key")), [
      { severity: "error", summary: "Invalid resource provider configuration", detail: COLLECTION, subject: "7:14-7:18" },
      { severity: "error", summary: "Invalid module provider configuration", detail: COLLECTION, subject: "13:12-13:16" },
    ]),
    expectDiagnostics(
      "005 d-empty-aliased-block",
      load(sub("d-empty-aliased-block")),
      [
        {
          severity: "error",
          summary: "Invalid resource provider configuration",
          detail: 'This module doesn\'t declare a provider "test" block with alias = "single", which is required for use with for_each.',
          subject: "7:14-7:18",
        },
      ],
      [{ severity: "warning", summary: "Redundant empty provider block" }],
    ),
  ]);
}

/**
 * 006's configuration-level part: every fixture loads without diagnostics. The key errors
 * (null, sensitive, unknown) come from evaluating the key per resource instance while planning.
 */
function case006(dir: string): CaseResult {
  return all(["", "err-null", "err-sensitive", "err-unknown"].map((s) => expectDiagnostics(`006 ${s || "main"}`, load(path.join(dir, s)), [])));
}

/** The table writes keys as NoKey or the bare HCL key (`"keystr"`, `1`). */
function keyColumn(k: InstanceKey): string {
  return k.kind === "NoKey" ? "NoKey" : instanceKeyString(k).slice(1, -1);
}

function case008(dir: string): CaseResult {
  const rows = readFileSync(path.join(dir, "cases.tsv"), "utf8")
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("#"));
  const problems: string[] = [];
  for (const line of rows) {
    const [input = "", module = "", provider = "", alias = "", key = "", error = ""] = line.split("\t");
    const r = parseAbsProviderConfigInstanceStr(input);
    if (error !== "") {
      const d = r.diagnostics[0];
      if (r.diagnostics.length !== 1 || d?.summary !== "Invalid provider configuration address" || d.detail !== error) {
        problems.push(`${input}: want error ${JSON.stringify(error)}, got ${r.diagnostics.map((x) => x.detail).join("; ")}`);
      }
      continue;
    }
    const got = r.result;
    if (!got || r.diagnostics.length > 0) {
      problems.push(`${input}: unexpected ${r.diagnostics.map((x) => x.detail).join("; ")}`);
      continue;
    }
    const gotRow = [got.config.module.isRoot() ? "(root)" : got.config.module.toString(), got.config.provider.toString(), got.config.alias, keyColumn(got.key)];
    if (gotRow.join("\t") !== [module, provider, alias, key].join("\t")) problems.push(`${input}: got ${gotRow.join(" | ")}`);
  }
  return problems.length > 0 ? fail(problems.join("\n")) : pass(`${rows.length} rows`);
}

const CASES: ReadonlyMap<string, (dir: string) => CaseResult> = new Map([
  ["001", case001],
  ["002", case002],
  ["003", case003],
  ["004", case004],
  ["005", case005],
  ["006", case006],
  ["008", case008],
]);

/** Runs one case directory of area A; cases without a harness here fail with the reason. */
export function runProviderConfigCase(dir: string): CaseResult {
  if (!existsSync(dir)) return fail(`${dir} does not exist`);
  const id = path.basename(dir).slice(0, 3);
  const run = CASES.get(id);
  if (!run) return fail(`case ${path.basename(dir)} has no configuration-level harness (it needs a later part of the engine)`);
  return run(dir);
}
