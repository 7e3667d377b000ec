// The configuration-level parts of OpenTofu conformance cases 030–037 (static evaluation; 033 and
// 034 are CLI-level and live in cli/conformance.harness.ts), as
// checks of got-versus-want, shared by conformance.test.ts and scripts/conformance.mjs. Files are
// read through `CaseIO` so this stays free of Node APIs. Diagnostics are compared in HCL's
// `Diagnostic.Error()` form, `<file>:<line>,<col>-<endcol>: <Summary>; <Detail>`.
import { formatRange, parseExpression, type Diagnostic } from "../../hcl/index.js";
import { EvalContext, evaluateAny } from "../../lang/eval/index.js";
import {
  EPHEMERAL,
  SENSITIVE,
  StringType,
  boolVal,
  mapVal,
  nullVal,
  numberIntVal,
  objectVal,
  stringVal,
  tupleVal,
  typeString,
  unknownVal,
  DynamicPseudoType,
  type Value,
} from "../../values/index.js";
import { configBodyJustAttributes } from "../body.js";
import { MemoryFS } from "../fs.js";
import { moduleSourceString } from "../module_source.js";
import { newModule, type Module } from "../module.js";
import { Parser } from "../parser.js";
import { rangeText } from "../diag.testkit.js";
import { checkBackendReferences, decodeBackendConfig } from "./backend.js";
import type { StaticBlockSchema } from "./blockspec.js";
import { rootModuleCallForTesting, newStaticModuleCall, type StaticModuleVariables } from "./call.js";
import { StaticEvaluator } from "./evaluator.js";
import type { StaticIdentifier } from "./identifier.js";
import { applyStaticModuleCall } from "./module.js";
import { eachObject } from "./provider.js";
import { RootModuleInputs, rootModuleCall } from "./variables.js";

export interface CaseIO {
  /** The file's text; undefined when absent. */
  readFile(path: string): string | undefined;
  /** Entry names of a directory; undefined when absent. */
  readDir(path: string): readonly string[] | undefined;
}

export interface Check {
  name: string;
  got: unknown;
  want: unknown;
}

/** HCL's Diagnostic.Error(); a missing subject prints as the zero range. */
export function diagString(d: Diagnostic): string {
  return `${d.subject ? formatRange(d.subject) : ":0,0-0"}: ${d.summary}; ${d.detail}`;
}

const diagStrings = (ds: readonly Diagnostic[]) => ds.map(diagString);
const sorted = (xs: readonly string[]) => [...xs].sort();

/** A value with its type and marks, for comparisons. */
export function describeValue(v: Value): string {
  const marks = [...v.marks].sort();
  const m = marks.length > 0 ? ` marked(${marks.join(",")})` : "";
  return `${typeString(v.type)} ${valueText(v)}${m}`;
}

function valueText(v: Value): string {
  switch (v.kind) {
    case "unknown":
      return "(unknown)";
    case "null":
      return "null";
    case "string":
      return JSON.stringify(v.value);
    case "number":
      return v.value.text("g", 40);
    case "bool":
      return String(v.value);
    case "list":
    case "set":
    case "tuple":
      return `[${v.elements.map(valueText).join(", ")}]`;
    case "map":
    case "object":
      return `{${[...v.attrs].map(([k, x]) => `${k} = ${valueText(x)}`).join(", ")}}`;
  }
}

function join(dir: string, name: string): string {
  return dir.endsWith("/") ? dir + name : `${dir}/${name}`;
}

/** The case's files under `sub` (relative names), for a MemoryFS. */
function memoryFiles(io: CaseIO, dir: string, sub: string): Record<string, string> {
  const out: Record<string, string> = {};
  const base = sub === "" ? dir : join(dir, sub);
  for (const name of io.readDir(base) ?? []) {
    const text = io.readFile(join(base, name));
    if (text !== undefined && (name.endsWith(".tf") || name.endsWith(".tofu"))) out[name] = text;
  }
  return out;
}

/** One file as a module in directory `sourceDir`, with the file named as given. */
function moduleFromFiles(files: Record<string, string>, sourceDir: string): { module: Module; diagnostics: Diagnostic[] } {
  const parser = new Parser(new MemoryFS(files));
  const diagnostics: Diagnostic[] = [];
  const parsed = [];
  for (const name of Object.keys(files).sort()) {
    const r = parser.loadConfigFile(name);
    diagnostics.push(...r.diagnostics);
    if (r.file) parsed.push(r.file);
  }
  const m = newModule(parsed, [], sourceDir);
  return { module: m.module, diagnostics: [...diagnostics, ...m.diagnostics] };
}

const defaultsOnly: StaticModuleVariables = (v) => ({ value: v.default, diagnostics: [] });
const LOCAL_TEST: StaticIdentifier = { module: [], subject: "local.test", declRange: undefined };

function localIdent(m: Module, name: string): StaticIdentifier {
  return { module: [], subject: `local.${name}`, declRange: m.locals.get(name)?.declRange };
}

function evalLocal(e: StaticEvaluator, name: string, ident: StaticIdentifier = localIdent(e.module, name)) {
  const local = e.module.locals.get(name);
  if (!local) throw new Error(`no local ${name}`);
  return e.evaluate(local.expr, ident);
}

// ---------------------------------------------------------------------------------------------

function case030(dir: string, io: CaseIO): Check[] {
  const src = io.readFile(join(dir, "eval.tf")) ?? "";
  const { module: mod, diagnostics } = moduleFromFiles({ "eval.tf": src }, "dir");
  const checks: Check[] = [{ name: "module loads", got: diagStrings(diagnostics), want: [] }];

  const input = new Map<string, Value>([
    ["str", stringVal("vara")],
    ["str_map", mapVal({ keyA: stringVal("mapa") })],
  ]);
  const withVars = new StaticEvaluator(mod, rootModuleCallForTesting((v) => ({ value: input.get(v.name) ?? v.default, diagnostics: [] }), "my-workspace"));
  const values: Array<[string, string]> = [
    ["static", "static"],
    ["static_ref", "static"],
    ["static_fn", "a81259cef8e959c624df1d456e5d3297"],
    ["path_root", "<testing>"],
    ["path_module", "dir"],
    ["var_str_def_ref", "sane default"],
    ["var_map_def_access", "A"],
    ["var_str_ref", "vara"],
    ["var_map_access", "mapa"],
    ["ws", "my-workspace"],
    ["func", "f887f41a53a46e2d40a3f8f86cacaaa2"],
  ];
  for (const [name, want] of values) {
    const r = evalLocal(withVars, name, LOCAL_TEST);
    checks.push({ name: `value of local.${name}`, got: { value: describeValue(r.value), diags: diagStrings(r.diagnostics) }, want: { value: describeValue(stringVal(want)), diags: [] } });
  }

  const plain = new StaticEvaluator(mod, rootModuleCallForTesting());
  const errors: Array<[string, string[]]> = [
    ["invalid_ref", ["eval.tf:37,16-33: Dynamic value in static context; Unable to use invalid.attribute in static context, which is required by local.invalid_ref"]],
    ["unavailable_ref", ["eval.tf:38,20-27: Dynamic value in static context; Unable to use foo.bar in static context, which is required by local.unavailable_ref"]],
    ["circular", ["eval.tf:41,2-27: Circular reference; local.circular is self referential"]],
    [
      "circular_ref",
      [
        "eval.tf:41,2-27: Circular reference; local.circular is self referential",
        "eval.tf:42,2-31: Unable to compute static value; local.circular_ref depends on local.circular which is not available",
      ],
    ],
    ["local_missing", ["eval.tf:52,18-31: Undefined local; Undefined local local.missing"]],
    ["var_missing", ["eval.tf:53,16-27: Undefined variable; Undefined variable var.missing"]],
    ["missing_func", ['eval.tf:60,17-27: Call to unknown function; There is no function named "missing_fn".']],
    ["provider_func", ["eval.tf:61,18-36: Provider function in static context; Unable to use provider::type::fn in static context, which is required by local.provider_func"]],
  ];
  for (const [name, want] of errors) checks.push({ name: `errors of local.${name}`, got: diagStrings(evalLocal(plain, name).diagnostics), want });
  // expect.md lists these two in the order of OpenTofu's test, which compares them as a set;
  // OpenTofu (and this engine) report the cycle first.
  checks.push({
    name: "errors of local.circular_a (as a set)",
    got: sorted(diagStrings(evalLocal(plain, "circular_a").diagnostics)),
    want: sorted([
      "eval.tf:43,2-31: Unable to compute static value; local.circular_a depends on local.circular_b which is not available",
      "eval.tf:43,2-31: Circular reference; local.circular_a is self referential",
    ]),
  });

  const failing = new StaticEvaluator(
    mod,
    rootModuleCallForTesting((v) => ({
      value: undefined,
      diagnostics: [{ severity: "error", summary: "Variable value not provided", detail: `var.${v.name} not included`, subject: v.declRange }],
    })),
  );
  checks.push({
    name: "dependency chain of local.ref_c",
    got: diagStrings(evalLocal(failing, "ref_c").diagnostics),
    want: [
      "eval.tf:2,1-15: Variable value not provided; var.str not included",
      "eval.tf:47,2-17: Unable to compute static value; local.ref_a depends on var.str which is not available",
      "eval.tf:48,2-21: Unable to compute static value; local.ref_b depends on local.ref_a which is not available",
      "eval.tf:49,2-21: Unable to compute static value; local.ref_c depends on local.ref_b which is not available",
    ],
  });
  return checks;
}

const THING_SCHEMA: StaticBlockSchema = { attributes: new Map([["thing", { type: StringType, required: false }]]), blockTypes: new Map() };

function case031(dir: string, io: CaseIO): Check[] {
  const checks: Check[] = [];
  const backends: Array<[string, string[]]> = [
    ["backend-valid", []],
    ["backend-badref", ['eval.tf:4,11-16: Invalid reference; The "count" object cannot be accessed directly. Instead, access one of its attributes.']],
    ["backend-badeval", ["eval.tf:4,11-25: Module output not supported in static context; Unable to use module.foo.bar in static context, which is required by backend.badeval"]],
    [
      "backend-sensitive",
      [
        "eval.tf:6,2-21: Backend config contains sensitive values; The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply sensitive credentials via backend specific environment variables",
      ],
    ],
    [
      "backend-ephemeral",
      [
        "eval.tf:7,2-22: Backend config contains ephemeral values; The backend configuration is stored in .terraform/terraform.tfstate as well as plan files. It is recommended to instead supply ephemeral credentials via backend specific environment variables",
      ],
    ],
  ];
  for (const [sub, want] of backends) {
    const src = io.readFile(join(join(dir, sub), "eval.tf")) ?? "";
    const { module: mod } = moduleFromFiles({ "eval.tf": src }, "dir");
    const { evaluator } = applyStaticModuleCall(mod, newStaticModuleCall([], defaultsOnly, "<testing>", ""));
    const b = mod.backend;
    if (!b) {
      checks.push({ name: `${sub}: backend block`, got: "none", want: "a backend" });
      continue;
    }
    const refs = checkBackendReferences(b, evaluator, THING_SCHEMA);
    if (refs.some((d) => d.severity === "error")) {
      checks.push({ name: `${sub}: diagnostics`, got: diagStrings(refs), want });
      continue;
    }
    const d = decodeBackendConfig(b, evaluator, THING_SCHEMA);
    checks.push({ name: `${sub}: diagnostics`, got: diagStrings(d.diagnostics), want });
    if (sub === "backend-valid") checks.push({ name: "backend-valid: thing", got: describeValue(d.value), want: describeValue(objectVal({ thing: stringVal("static") })) });
  }

  // DecodeExpression into a string, identifier local.test.
  const { module: mod } = moduleFromFiles(
    {
      "locals.tf": 'variable "eph" {\n  ephemeral = true\n  default = "ephemeral local value"\n}\nlocals {\n  my_ephemeral_local = var.eph\n  my_sensitive_local = sensitive("sensitive local value")\n}\n',
    },
    "dir",
  );
  const evaluator = new StaticEvaluator(mod, rootModuleCallForTesting(defaultsOnly));
  const exprs: Array<[string, string[]]> = [
    ['"static"', []],
    [
      "count",
      [
        'eval.tf:1,1-6: Invalid reference; The "count" object cannot be accessed directly. Instead, access one of its attributes.',
        ":0,0-0: Dynamic value in static context; Unable to use count. in static context, which is required by local.test",
      ],
    ],
    ["module.foo.bar", ["eval.tf:1,1-15: Module output not supported in static context; Unable to use module.foo.bar in static context, which is required by local.test"]],
    ["local.my_ephemeral_local", ["eval.tf:1,1-25: Ephemeral value not allowed; Ephemeral values, or values derived from ephemeral values, cannot be used as local.test."]],
    ["local.my_sensitive_local", ["eval.tf:1,1-25: Sensitive value not allowed; Sensitive values, or values derived from sensitive values, cannot be used as local.test."]],
  ];
  for (const [text, want] of exprs) {
    const expr = parseExpression(text, "eval.tf").result;
    checks.push({ name: `DecodeExpression ${text}`, got: diagStrings(evaluator.decodeString(expr, LOCAL_TEST).diagnostics), want });
  }
  return checks;
}

function case032(dir: string, io: CaseIO): Check[] {
  const checks: Check[] = [];
  for (const sub of ["a-pre-const", "b-const-true", "c-const-false"]) {
    const { module: mod, diagnostics } = moduleFromFiles(memoryFiles(io, dir, sub), ".");
    const applied = applyStaticModuleCall(mod, newStaticModuleCall([], defaultsOnly, ".", ""));
    const all = [...diagnostics, ...applied.diagnostics];
    const foo = mod.moduleCalls.get("foo");
    if (sub !== "c-const-false") {
      checks.push({ name: `${sub}: diagnostics`, got: diagStrings(all), want: [] });
      checks.push({ name: `${sub}: source`, got: foo?.sourceAddr ? `${foo.sourceAddr.kind} ${moduleSourceString(foo.sourceAddr)}` : "none", want: "local ./path" });
    } else {
      checks.push({
        name: `${sub}: diagnostics`,
        got: all.map((d) => ({ summary: d.summary, detail: d.detail, subject: rangeText(d.subject) })),
        want: [
          {
            summary: "Unable to use variable in static context",
            detail: 'The variable "path" cannot be used in a static context, because it is declared as "const = false".',
            subject: "3:12-3:20",
          },
        ],
      });
    }
  }
  return checks;
}

function case035(dir: string, io: CaseIO): Check[] {
  const checks: Check[] = [];
  const valid = memoryFiles(io, dir, "valid");
  const { module: mod, diagnostics } = moduleFromFiles(valid, ".");
  const applied = applyStaticModuleCall(mod, rootModuleCallForTesting());
  checks.push({ name: "valid: diagnostics", got: diagStrings([...diagnostics, ...applied.diagnostics]), want: [] });
  const foo = mod.moduleCalls.get("foo");
  checks.push({
    name: "valid: module.foo",
    got: { source: foo?.sourceAddr && moduleSourceString(foo.sourceAddr), kind: foo?.sourceAddr?.kind, hasVersion: foo?.hasVersion, required: foo?.version.required.length, versionRange: rangeText(foo?.version.declRange) },
    want: { source: "./foo", kind: "local", hasVersion: false, required: 0, versionRange: undefined },
  });
  const remote = mod.moduleCalls.get("foo_remote");
  const ra = remote?.sourceAddr;
  checks.push({
    name: "valid: module.foo_remote",
    got: {
      source: ra?.kind === "registry" ? [ra.host, ra.namespace, ra.name, ra.targetSystem] : ra,
      version: remote?.version.raw,
      versionRange: rangeText(remote?.version.declRange),
    },
    want: { source: ["registry.opentofu.org", "hashicorp", "foo", "bar"], version: "1.0.0", versionRange: "14:3-14:37" },
  });

  for (const name of ["module-local-source-with-version.tf", "module-invalid-registry-source-with-module.tf", "module-sensitive.tf"]) {
    const text = io.readFile(join(join(dir, "errors"), name)) ?? "";
    const want = text.split("\n").flatMap((line, i) => {
      const m = /# ERROR: (.*)$/.exec(line);
      return m ? [`${i + 1}: ${(m[1] ?? "").trim()}`] : [];
    });
    const r = moduleFromFiles({ [name]: text }, ".");
    const a = applyStaticModuleCall(r.module, rootModuleCallForTesting());
    const got = [...r.diagnostics, ...a.diagnostics].filter((d) => d.severity === "error").map((d) => `${d.subject?.start.line ?? 0}: ${d.summary}`);
    checks.push({ name: `errors/${name}`, got: sorted(got), want: sorted(want) });
  }
  const sens = moduleFromFiles({ "module-sensitive.tf": io.readFile(join(join(dir, "errors"), "module-sensitive.tf")) ?? "" }, ".");
  const sensDiags = applyStaticModuleCall(sens.module, rootModuleCallForTesting()).diagnostics;
  checks.push({
    name: "errors/module-sensitive.tf: source detail",
    got: sensDiags.find((d) => d.summary === "Sensitive value not allowed")?.detail,
    want: "Sensitive values, or values derived from sensitive values, cannot be used as module.test.source.",
  });
  return checks;
}

function case036(dir: string, io: CaseIO): Check[] {
  const checks: Check[] = [];
  const { module: mod, diagnostics } = moduleFromFiles({ "test.tf": io.readFile(join(dir, "test.tf")) ?? "" }, ".");
  checks.push({ name: "module loads", got: diagStrings(diagnostics), want: [] });
  const given = new Map<string, Value>([
    ["unconstrained", objectVal({})],
    ["string", stringVal("hello")],
    ["string_from_number", numberIntVal(12)],
    ["list_from_tuple", tupleVal([stringVal("a"), boolVal(true), stringVal("a")])],
    ["set_from_tuple", tupleVal([stringVal("a"), boolVal(true), stringVal("a")])],
    ["map_from_object", objectVal({ a: stringVal("a value"), b: boolVal(false) })],
    ["non_nullable_default", nullVal(StringType)],
    ["object_with_optional", objectVal({ c: stringVal("c value"), d: stringVal("d value") })],
    ["nullable_null_string", nullVal(StringType)],
    ["unknown_string", unknownVal(StringType)],
    ["sensitive_string", stringVal("ssshhhhh it's a secret")],
    ["ephemeral_string", stringVal("ssshhhhh it's a secret")],
  ]);
  const want: Array<[string, string]> = [
    ["unconstrained", "object({}) {}"],
    ["string", 'string "hello"'],
    ["string_from_number", 'string "12"'],
    ["list_from_tuple", 'list(string) ["a", "true", "a"]'],
    ["set_from_tuple", 'set(string) ["a", "true"]'],
    ["map_from_object", 'map(string) {a = "a value", b = "false"}'],
    ["non_nullable_default", 'string "default value"'],
    ["object_with_optional", 'object({a=string,b=string,c=string}) {a = null, b = "b default", c = "c value"}'],
    ["nullable_null_string", "string null"],
    ["unknown_string", "string (unknown)"],
    ["sensitive_string", `string "ssshhhhh it's a secret" marked(${SENSITIVE})`],
    ["ephemeral_string", `string "ssshhhhh it's a secret" marked(${EPHEMERAL})`],
  ];
  const evaluator = new StaticEvaluator(mod, rootModuleCallForTesting((v) => ({ value: given.get(v.name), diagnostics: [] })));
  for (const [name, w] of want) {
    const r = evaluator.evaluate(parseExpression(`var.${name}`, "expr.tf").result, LOCAL_TEST);
    checks.push({ name: `var.${name}`, got: { value: describeValue(r.value), diags: diagStrings(r.diagnostics) }, want: { value: w, diags: [] } });
  }

  const bad = moduleFromFiles({ "bad.tf": 'variable "bad_default" {\n  type = list(string)\n}\nvariable "not_nullable" {\n  type     = string\n  nullable = false\n}\n' }, ".");
  const badEval = new StaticEvaluator(
    bad.module,
    rootModuleCallForTesting((v) => ({ value: v.name === "bad_default" ? stringVal("not a list") : nullVal(DynamicPseudoType), diagnostics: [] })),
  );
  const r1 = badEval.evaluate(parseExpression("var.bad_default", "expr.tf").result, LOCAL_TEST);
  checks.push({
    name: "incompatible type",
    got: r1.diagnostics.map((d) => `${d.summary}; ${d.detail}`),
    want: ["Invalid value for input variable; The given value is not suitable for var.bad_default declared at bad.tf:1,1-23: list of string required."],
  });
  const r2 = badEval.evaluate(parseExpression("var.not_nullable", "expr.tf").result, LOCAL_TEST);
  checks.push({
    name: "non-nullable null",
    got: r2.diagnostics.filter((d) => d.severity === "error").map((d) => d.summary + (d.detail.includes("required variable may not be set to null") ? " (may not be null)" : "")),
    want: ["Required variable not set (may not be null)", "Unable to compute static value"],
  });
  return checks;
}

function case037(dir: string, io: CaseIO): Check[] {
  const checks: Check[] = [];
  const { module: mod, diagnostics } = moduleFromFiles(memoryFiles(io, dir, ""), ".");
  checks.push({ name: "main.tf loads", got: diagStrings(diagnostics), want: [] });
  const applied = applyStaticModuleCall(mod, rootModuleCallForTesting());
  checks.push({
    name: "main.tf: provider for_each from a resource",
    got: diagStrings(applied.diagnostics),
    want: ["main.tf:7,14-29: Dynamic value in static context; Unable to use test_object.src in static context, which is required by provider.test.multi.for_each"],
  });

  const ok = moduleFromFiles(memoryFiles(io, dir, "var-ok"), ".");
  checks.push({ name: "var-ok loads", got: diagStrings(ok.diagnostics), want: [] });
  const inputs = new RootModuleInputs(new Map([["regions", { kind: "string", name: "regions", raw: '["eu","us","disabled"]', source: "cli-arg" }]]));
  const a = applyStaticModuleCall(ok.module, rootModuleCall(inputs, ".", "default"));
  checks.push({ name: "var-ok: diagnostics", got: diagStrings(a.diagnostics), want: [] });
  const p = ok.module.providerConfigs.get("test.by_region");
  const configured: Record<string, string> = {};
  const attr = p ? configBodyJustAttributes(p.config).attributes.get("test_string") : undefined;
  for (const [key, rep] of p?.instances ?? []) {
    if (!attr) break;
    const v = evaluateAny(attr.expr, new EvalContext(new Map([["each", eachObject(rep)]]), undefined)).value;
    configured[key] = v.kind === "string" ? v.value : describeValue(v);
  }
  checks.push({ name: "var-ok: provider instances and test_string", got: configured, want: { disabled: "DISABLED", eu: "EU", us: "US" } });
  return checks;
}

const CASES: Record<string, (dir: string, io: CaseIO) => Check[]> = {
  "030": case030,
  "031": case031,
  "032": case032,
  "035": case035,
  "036": case036,
  "037": case037,
};

/** The checks of a case this harness covers; undefined for the others. */
export function staticCaseChecks(caseDir: string, io: CaseIO): Check[] | undefined {
  const name = caseDir.split("/").filter((x) => x !== "").pop() ?? "";
  const run = CASES[name.slice(0, 3)];
  return run ? run(caseDir, io) : undefined;
}

/** The harness for scripts/conformance.mjs: every check must hold. */
export function runStaticCase(caseDir: string, io: CaseIO): { ok: boolean; message: string } {
  let checks: Check[] | undefined;
  try {
    checks = staticCaseChecks(caseDir, io);
  } catch (e) {
    return { ok: false, message: `harness error: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (!checks) return { ok: false, message: "not a configuration-level case (033 and 034 run in cli/conformance.harness.ts)" };
  const failed = checks.filter((c) => JSON.stringify(c.got) !== JSON.stringify(c.want));
  if (failed.length === 0) return { ok: true, message: `${checks.length} checks passed` };
  return { ok: false, message: failed.map((c) => `${c.name}: got ${JSON.stringify(c.got)}, want ${JSON.stringify(c.want)}`).join("\n") };
}
