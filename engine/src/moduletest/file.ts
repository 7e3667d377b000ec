// Test files (`.tftest.hcl` / `.tofutest.hcl`, and in HCL's JSON syntax `.tftest.json` /
// `.tofutest.json`), decoded as OpenTofu's configs/test_file.go does, through the body
// abstraction both syntaxes share:
// file-level `variables`, `provider`, `mock_provider` (with `mock_resource`, `mock_data`,
// `override_resource`, `override_data`), `override_*` blocks and `run` blocks (`command`,
// `variables`, `providers`, `assert`, `expect_failures`, `plan_options`, `module`, overrides).
// Expressions stay unevaluated; diagnostics carry OpenTofu's summaries and details.
import { checkProviderLocalName, parseConfigResource, parseModule, type ConfigResource, type Module as ModulePath } from "../addrs/index.js";
import {
  absTraversalForExpr,
  bodyContent,
  errorDiag,
  exprAsKeyword,
  exprList,
  exprMap,
  formatRange,
  hasErrors,
  jsonBody,
  justAttributes,
  nativeBody,
  parseConfig,
  parseJSONConfig,
  type AnyExpression,
  type BodyContent,
  type BodySchema,
  type ContentAttribute,
  type ContentBlock,
  type Diagnostic,
  type Range,
  type SyntaxBody,
  type Traverser,
} from "../hcl/index.js";
import { configBodyPartialContent, decodeProviderConfigRef, exprVariables, parseModuleSource, validIdentifier, type CheckRule, type ConfigBody, type ModuleSource } from "../configs/index.js";
import { EvalContext, evaluateAny } from "../lang/eval/index.js";
import type { Value } from "../values/index.js";

const BAD_IDENTIFIER_DETAIL =
  "A name must start with a letter or underscore and may contain only letters, digits, underscores, and dashes.";

export type TestCommand = "apply" | "plan";

export interface TestProvider {
  name: string;
  alias: string;
  aliasRange: Range | undefined;
  forEach: AnyExpression | undefined;
  /** The provider's own arguments (empty for a mock provider). */
  config: ConfigBody;
  declRange: Range;
  /** Set for `mock_provider` blocks. */
  mock: MockProviderData | undefined;
}

export interface MockResource {
  mode: "managed" | "data";
  type: string;
  defaults: Map<string, Value>;
}

export interface OverrideResource {
  /** Which block: `override_resource` (managed) or `override_data` (data). */
  mode: "managed" | "data";
  /** The resource it overrides (`aws_instance.a`, `module.m.data.x.y`), every instance of it. */
  target: ConfigResource;
  targetRange: Range;
  values: Map<string, Value>;
}

export interface OverrideModule {
  /** The module call path (`module.a.module.b`). */
  target: ModulePath;
  targetRange: Range;
  outputs: Map<string, Value>;
}

export interface MockProviderData {
  mockResources: MockResource[];
  overrideResources: OverrideResource[];
}

export interface PassedProvider {
  /** The module's name for the provider (`aws` or `aws.west`). */
  inChild: { name: string; alias: string; range: Range };
  /** The test file's provider configuration it gets. */
  inParent: { name: string; alias: string; range: Range; keyed: boolean };
}

export interface TestRunOptions {
  mode: "normal" | "refresh-only";
  refresh: boolean;
  replace: Traverser[][];
  target: Traverser[][];
}

export interface TestRun {
  name: string;
  command: TestCommand;
  options: TestRunOptions;
  variables: Map<string, AnyExpression>;
  providers: PassedProvider[] | undefined;
  assertions: CheckRule[];
  expectFailures: Traverser[][];
  module: { source: ModuleSource; sourceRaw: string; range: Range } | undefined;
  overrideResources: OverrideResource[];
  overrideModules: OverrideModule[];
  nameRange: Range;
  declRange: Range;
}

export interface TestFile {
  /** The file's name as `tofu test` prints it (relative to the module directory). */
  name: string;
  variables: Map<string, AnyExpression>;
  /** `provider` and `mock_provider` blocks by `name` or `name.alias`. */
  providers: Map<string, TestProvider>;
  runs: TestRun[];
  overrideResources: OverrideResource[];
  overrideModules: OverrideModule[];
}

const testFileSchema: BodySchema = {
  blocks: [
    { type: "run", labelNames: ["name"] },
    { type: "provider", labelNames: ["name"] },
    { type: "variables" },
    { type: "override_resource" },
    { type: "override_data" },
    { type: "override_module" },
    { type: "mock_provider", labelNames: ["name"] },
  ],
};

const runSchema: BodySchema = {
  attributes: [{ name: "command" }, { name: "providers" }, { name: "expect_failures" }],
  blocks: [
    { type: "plan_options" },
    { type: "assert" },
    { type: "variables" },
    { type: "module" },
    { type: "override_resource" },
    { type: "override_data" },
    { type: "override_module" },
  ],
};

const planOptionsSchema: BodySchema = { attributes: [{ name: "mode" }, { name: "refresh" }, { name: "replace" }, { name: "target" }] };
const moduleSchema: BodySchema = { attributes: [{ name: "source" }, { name: "version" }] };
const overrideResourceSchema: BodySchema = { attributes: [{ name: "target", required: true }, { name: "values" }] };
const overrideModuleSchema: BodySchema = { attributes: [{ name: "target", required: true }, { name: "outputs" }] };
const mockProviderSchema: BodySchema = {
  attributes: [{ name: "alias" }, { name: "for_each" }],
  blocks: [{ type: "mock_resource", labelNames: ["type"] }, { type: "mock_data", labelNames: ["type"] }, { type: "override_resource" }, { type: "override_data" }],
};
const mockResourceSchema: BodySchema = { attributes: [{ name: "defaults" }] };
const providerMetaSchema: BodySchema = {
  attributes: [{ name: "alias" }, { name: "version" }, { name: "for_each" }],
};
const checkRuleSchema: BodySchema = {
  attributes: [
    { name: "condition", required: true },
    { name: "error_message", required: true },
  ],
};

/** A test file's body: HCL's JSON syntax for names ending in ".json" (as tofu's LoadHCLFile), native otherwise. */
function parseTestFile(name: string, source: string | Uint8Array): { body: SyntaxBody; diagnostics: Diagnostic[] } {
  if (name.endsWith(".json")) {
    const r = parseJSONConfig(source, name);
    return { body: jsonBody(r.result.root), diagnostics: r.diagnostics };
  }
  const r = parseConfig(source, name);
  return { body: nativeBody(r.result.body), diagnostics: r.diagnostics };
}

/** Parses and decodes one test file, in the syntax its name says. */
export function decodeTestFile(name: string, source: string | Uint8Array): { file: TestFile; diagnostics: Diagnostic[] } {
  const parsed = parseTestFile(name, source);
  const diagnostics: Diagnostic[] = [...parsed.diagnostics];
  const file: TestFile = { name, variables: new Map(), providers: new Map(), runs: [], overrideResources: [], overrideModules: [] };
  // As tofu's LoadTestFile, what the parser recovered is decoded too, so one pass reports the
  // syntax errors with the problems of what surrounds them.
  const { content, diagnostics: cd } = bodyContent(parsed.body, testFileSchema);
  diagnostics.push(...cd);
  let variablesRange: Range | undefined;
  for (const block of content.blocks) {
    switch (block.type) {
      case "run": {
        const r = decodeRun(block);
        diagnostics.push(...r.diagnostics);
        if (!hasErrors(r.diagnostics)) file.runs.push(r.run);
        break;
      }
      case "variables":
        diagnostics.push(...decodeVariables(block, "test file", variablesRange, file.variables));
        variablesRange ??= block.defRange;
        break;
      case "provider": {
        const p = decodeTestProvider(block);
        diagnostics.push(...p.diagnostics);
        if (p.provider) file.providers.set(providerKey(p.provider), p.provider);
        break;
      }
      case "mock_provider": {
        const p = decodeMockProvider(block);
        diagnostics.push(...p.diagnostics);
        if (p.provider && !hasErrors(p.diagnostics)) {
          const k = providerKey(p.provider);
          const existing = file.providers.get(k);
          if (existing?.mock) {
            diagnostics.push(
              errorDiag("Duplicated `mock_provider` block", `It is not allowed to have multiple \`mock_provider\` blocks with the same address: \`${k}\`.`, p.provider.declRange),
            );
          } else file.providers.set(k, p.provider);
        }
        break;
      }
      case "override_resource":
      case "override_data":
      case "override_module":
        diagnostics.push(...decodeOverride(block, file));
        break;
    }
  }
  diagnostics.push(...duplicatedOverrides(file.overrideResources, file.overrideModules));
  return { file, diagnostics };
}

export function providerKey(p: { name: string; alias: string }): string {
  return p.alias !== "" ? `${p.name}.${p.alias}` : p.name;
}

function decodeString(attr: ContentAttribute): { value: string | undefined; diagnostics: Diagnostic[] } {
  const r = evaluateAny(attr.expr, new EvalContext(undefined, undefined));
  if (hasErrors(r.diagnostics)) return { value: undefined, diagnostics: r.diagnostics };
  if (r.value.kind !== "string") {
    return { value: undefined, diagnostics: [errorDiag("Incorrect attribute value type", `Inappropriate value for attribute ${JSON.stringify(attr.name)}: string required.`, attr.expr.range)] };
  }
  return { value: r.value.value, diagnostics: [] };
}

function decodeTestProvider(block: ContentBlock): { provider: TestProvider | undefined; diagnostics: Diagnostic[] } {
  const { content, remain, diagnostics } = configBodyPartialContent(block.body, providerMetaSchema);
  const name = block.labels[0] ?? "";
  const nameDiags = checkProviderLocalName(name, block.defRange);
  diagnostics.push(...nameDiags);
  if (hasErrors(nameDiags)) return { provider: undefined, diagnostics };
  const p: TestProvider = { name, alias: "", aliasRange: undefined, forEach: undefined, config: remain, declRange: block.defRange, mock: undefined };
  diagnostics.push(...decodeAliasAndForEach(p, content, "Invalid provider configuration alias"));
  return { provider: p, diagnostics };
}

/** The `alias` and `for_each` of a `provider` or `mock_provider` block (`badAlias`: the summary for an invalid alias). */
function decodeAliasAndForEach(p: TestProvider, content: BodyContent, badAlias: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const alias = content.attributes.get("alias");
  if (alias) {
    const r = decodeString(alias);
    diagnostics.push(...r.diagnostics);
    p.alias = r.value ?? "";
    p.aliasRange = alias.expr.range;
    if (!validIdentifier(p.alias)) diagnostics.push(errorDiag(badAlias, `An alias must be a valid name. ${BAD_IDENTIFIER_DETAIL}`, alias.expr.range));
  }
  const forEach = content.attributes.get("for_each");
  if (forEach) p.forEach = forEach.expr;
  if (p.alias === "" && p.forEach) {
    diagnostics.push(errorDiag('Alias required when using "for_each"', "The for_each argument is allowed only for provider configurations with an alias.", p.forEach.range));
  }
  return diagnostics;
}

function decodeMockProvider(block: ContentBlock): { provider: TestProvider | undefined; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, mockProviderSchema);
  const name = block.labels[0] ?? "";
  const nameDiags = checkProviderLocalName(name, block.defRange);
  diagnostics.push(...nameDiags);
  if (hasErrors(nameDiags)) return { provider: undefined, diagnostics };
  const mock: MockProviderData = { mockResources: [], overrideResources: [] };
  // A mock provider takes no configuration of its own: its body is empty for the provider schema.
  const empty = nativeBody(parseConfig("", block.defRange.filename).result.body);
  const p: TestProvider = { name, alias: "", aliasRange: undefined, forEach: undefined, config: empty, declRange: block.defRange, mock };
  diagnostics.push(...decodeAliasAndForEach(p, content, "Invalid mock provider configuration alias"));
  for (const b of content.blocks) {
    if (b.type === "mock_resource" || b.type === "mock_data") {
      const mode = b.type === "mock_resource" ? "managed" : "data";
      const mc = bodyContent(b.body, mockResourceSchema);
      diagnostics.push(...mc.diagnostics);
      const defaults = mc.content.attributes.get("defaults");
      const r = defaults ? objectAttrWithNoVariables(defaults) : { values: new Map<string, Value>(), diagnostics: [] };
      diagnostics.push(...r.diagnostics);
      if (hasErrors(mc.diagnostics) || hasErrors(r.diagnostics)) continue;
      const type = b.labels[0] ?? "";
      if (mock.mockResources.some((m) => m.mode === mode && m.type === type)) {
        diagnostics.push(errorDiag(`Duplicated \`${b.type}\` block`, `\`${b.type}.${type}\` is already defined in \`mock_provider\` block.`, block.defRange));
        continue;
      }
      mock.mockResources.push({ mode, type, defaults: r.values });
    } else {
      const o = decodeOverrideResource(b);
      diagnostics.push(...o.diagnostics);
      if (!o.override) continue;
      if (mock.overrideResources.some((x) => o.override !== undefined && x.target.equal(o.override.target) && x.mode === o.override.mode)) {
        diagnostics.push(errorDiag(`Duplicated \`${b.type}\` block`, `\`${b.type}\` with target \`${o.override.target.toString()}\` is already defined in \`mock_provider\` block.`, block.defRange));
        continue;
      }
      mock.overrideResources.push(o.override);
    }
  }
  return { provider: p, diagnostics };
}

/** `values`, `outputs`, `defaults`: an object evaluated with no variables or functions. */
function objectAttrWithNoVariables(attr: ContentAttribute): { values: Map<string, Value>; diagnostics: Diagnostic[] } {
  const r = evaluateAny(attr.expr, new EvalContext(undefined, undefined));
  if (hasErrors(r.diagnostics)) return { values: new Map(), diagnostics: r.diagnostics };
  if (r.value.kind !== "object") {
    return { values: new Map(), diagnostics: [errorDiag("Object expected", `The attribute \`${attr.name}\` must be an object.`, attr.range)] };
  }
  return { values: new Map(r.value.attrs), diagnostics: r.diagnostics };
}

function traversalString(t: readonly Traverser[]): string {
  let out = "";
  for (const s of t) {
    if (s.kind === "Root") out += s.name;
    else if (s.kind === "Attr") out += `.${s.name}`;
    else if (s.kind === "Index") out += s.key.type === "string" ? `[${JSON.stringify(s.key.value)}]` : `[${s.key.type === "number" ? s.key.text : "?"}]`;
    else out += "[*]";
  }
  return out;
}

/** `target` as addrs.ParseConfigResource reads it: module steps without keys, then [data.]type.name. */
function decodeOverrideResource(block: ContentBlock): { override: OverrideResource | undefined; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, overrideResourceSchema);
  const mode = block.type === "override_data" ? "data" : "managed";
  const target = content.attributes.get("target");
  if (!target) return { override: undefined, diagnostics };
  const t = absTraversalForExpr(target.expr);
  diagnostics.push(...t.diagnostics);
  if (hasErrors(t.diagnostics)) return { override: undefined, diagnostics };
  const parsed = parseConfigResource(t.traversal);
  diagnostics.push(...parsed.diagnostics);
  if (!parsed.result || hasErrors(parsed.diagnostics)) return { override: undefined, diagnostics };
  const values = content.attributes.get("values");
  const v = values ? objectAttrWithNoVariables(values) : { values: new Map<string, Value>(), diagnostics: [] };
  diagnostics.push(...v.diagnostics);
  return { override: { mode, target: parsed.result, targetRange: target.expr.range, values: v.values }, diagnostics };
}

function decodeOverrideModule(block: ContentBlock): { override: OverrideModule | undefined; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, overrideModuleSchema);
  const target = content.attributes.get("target");
  if (!target) return { override: undefined, diagnostics };
  const t = absTraversalForExpr(target.expr);
  diagnostics.push(...t.diagnostics);
  if (hasErrors(t.diagnostics)) return { override: undefined, diagnostics };
  const parsed = parseModule(t.traversal);
  diagnostics.push(...parsed.diagnostics);
  if (!parsed.result || hasErrors(parsed.diagnostics)) return { override: undefined, diagnostics };
  const outputs = content.attributes.get("outputs");
  const v = outputs ? objectAttrWithNoVariables(outputs) : { values: new Map<string, Value>(), diagnostics: [] };
  diagnostics.push(...v.diagnostics);
  return { override: { target: parsed.result, targetRange: target.expr.range, outputs: v.values }, diagnostics };
}

function duplicatedOverrides(resources: readonly OverrideResource[], modules: readonly OverrideModule[]): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const r of resources) {
    const k = `${r.mode}|${r.target.toString()}`;
    const blockName = r.mode === "data" ? "override_data" : "override_resource";
    if (seen.has(k)) {
      diagnostics.push(errorDiag(`Duplicated \`${blockName}\` block`, `It is not allowed to have multiple \`${blockName}\` blocks with the same target: \`${r.target.toString()}\`.`, r.targetRange));
    }
    seen.add(k);
  }
  const seenMods = new Set<string>();
  for (const m of modules) {
    const k = m.target.toString();
    if (seenMods.has(k)) {
      diagnostics.push(errorDiag("Duplicated `override_module` block", `It is not allowed to have multiple \`override_module\` blocks with the same target: \`${k}\`.`, m.targetRange));
    }
    seenMods.add(k);
  }
  return diagnostics;
}

/**
 * A `variables` block of a test file or run block (`owner`), which may have only one (`previous`:
 * the range of the one already decoded): its expressions by name go into `into`.
 */
function decodeVariables(block: ContentBlock, owner: string, previous: Range | undefined, into: Map<string, AnyExpression>): Diagnostic[] {
  if (previous) return [errorDiag('Multiple "variables" blocks', `This ${owner} already has a variables block defined at ${formatRange(previous)}.`, block.defRange)];
  const attrs = justAttributes(block.body);
  for (const [k, a] of attrs.attributes) into.set(k, a.expr);
  return attrs.diagnostics;
}

/** An `override_resource`, `override_data` or `override_module` block of a test file or run block. */
function decodeOverride(block: ContentBlock, owner: { overrideResources: OverrideResource[]; overrideModules: OverrideModule[] }): Diagnostic[] {
  if (block.type === "override_module") {
    const o = decodeOverrideModule(block);
    if (o.override) owner.overrideModules.push(o.override);
    return o.diagnostics;
  }
  const o = decodeOverrideResource(block);
  if (o.override) owner.overrideResources.push(o.override);
  return o.diagnostics;
}

function decodeRun(block: ContentBlock): { run: TestRun; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, runSchema);
  const run: TestRun = {
    name: block.labels[0] ?? "",
    command: "apply",
    options: { mode: "normal", refresh: true, replace: [], target: [] },
    variables: new Map(),
    providers: undefined,
    assertions: [],
    expectFailures: [],
    module: undefined,
    overrideResources: [],
    overrideModules: [],
    nameRange: block.labelRanges[0] ?? block.defRange,
    declRange: block.defRange,
  };
  if (!validIdentifier(run.name)) diagnostics.push(errorDiag("Invalid run block name", BAD_IDENTIFIER_DETAIL, run.nameRange));
  let variablesRange: Range | undefined;
  let optionsRange: Range | undefined;
  let moduleRange: Range | undefined;
  for (const b of content.blocks) {
    switch (b.type) {
      case "assert": {
        const c = bodyContent(b.body, checkRuleSchema);
        const condition = c.content.attributes.get("condition")?.expr;
        // As for every check rule (configs' decodeCheckRuleBlock): a condition that refers to
        // nothing is a constant and checks nothing.
        if (condition && exprVariables(condition).length === 0) {
          c.diagnostics.push(
            errorDiag(
              "Invalid assert expression",
              "The condition expression must refer to at least one object from elsewhere in the configuration, or else its result would not be checking anything.",
              condition.range,
            ),
          );
        }
        diagnostics.push(...c.diagnostics);
        if (!hasErrors(c.diagnostics)) {
          run.assertions.push({ condition, errorMessage: c.content.attributes.get("error_message")?.expr, declRange: b.defRange });
        }
        break;
      }
      case "plan_options": {
        if (optionsRange) {
          diagnostics.push(errorDiag('Multiple "plan_options" blocks', `This run block already has a plan_options block defined at ${formatRange(optionsRange)}.`, b.defRange));
          continue;
        }
        optionsRange = b.defRange;
        const o = decodePlanOptions(b);
        diagnostics.push(...o.diagnostics);
        if (!hasErrors(o.diagnostics)) run.options = o.options;
        break;
      }
      case "variables":
        diagnostics.push(...decodeVariables(b, "run block", variablesRange, run.variables));
        variablesRange ??= b.defRange;
        break;
      case "module": {
        if (moduleRange) {
          diagnostics.push(errorDiag('Multiple "module" blocks', `This run block already has a module block defined at ${formatRange(moduleRange)}.`, b.defRange));
        }
        moduleRange = b.defRange;
        const m = decodeRunModule(b);
        diagnostics.push(...m.diagnostics);
        if (m.module) run.module = m.module;
        break;
      }
      case "override_resource":
      case "override_data":
      case "override_module":
        diagnostics.push(...decodeOverride(b, run));
        break;
    }
  }
  const command = content.attributes.get("command");
  if (command) {
    const kw = exprAsKeyword(command.expr);
    if (kw === "apply" || kw === "plan") run.command = kw;
    else diagnostics.push(errorDiag('Invalid "command" keyword', 'The "command" argument requires one of the following keywords without quotes: apply or plan.', command.expr.range));
  }
  const providers = content.attributes.get("providers");
  if (providers) {
    const p = decodePassedProviders(providers);
    diagnostics.push(...p.diagnostics);
    run.providers = p.providers;
  }
  const expect = content.attributes.get("expect_failures");
  if (expect) {
    const t = traversalList(expect);
    diagnostics.push(...t.diagnostics);
    run.expectFailures = t.traversals;
  }
  diagnostics.push(...duplicatedOverrides(run.overrideResources, run.overrideModules));
  return { run, diagnostics };
}

/** A list of references (decodeDependsOn): `[a.b, c.d]`. */
function traversalList(attr: ContentAttribute): { traversals: Traverser[][]; diagnostics: Diagnostic[] } {
  const { items, diagnostics } = exprList(attr.expr);
  const traversals: Traverser[][] = [];
  for (const item of items) {
    const t = absTraversalForExpr(item);
    diagnostics.push(...t.diagnostics);
    if (!hasErrors(t.diagnostics)) traversals.push(t.traversal);
  }
  return { traversals, diagnostics };
}

function decodePlanOptions(block: ContentBlock): { options: TestRunOptions; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, planOptionsSchema);
  const options: TestRunOptions = { mode: "normal", refresh: true, replace: [], target: [] };
  const mode = content.attributes.get("mode");
  if (mode) {
    const kw = exprAsKeyword(mode.expr);
    if (kw === "normal" || kw === "refresh-only") options.mode = kw;
    else diagnostics.push(errorDiag('Invalid "mode" keyword', 'The "mode" argument requires one of the following keywords without quotes: normal or refresh-only', mode.expr.range));
  }
  const refresh = content.attributes.get("refresh");
  if (refresh) {
    const r = evaluateAny(refresh.expr, new EvalContext(undefined, undefined));
    diagnostics.push(...r.diagnostics);
    if (r.value.kind === "bool") options.refresh = r.value.value;
    else if (!hasErrors(r.diagnostics)) diagnostics.push(errorDiag("Incorrect attribute value type", 'Inappropriate value for attribute "refresh": bool required.', refresh.expr.range));
  }
  const replace = content.attributes.get("replace");
  if (replace) {
    const t = traversalList(replace);
    diagnostics.push(...t.diagnostics);
    options.replace = t.traversals;
  }
  const target = content.attributes.get("target");
  if (target) {
    const t = traversalList(target);
    diagnostics.push(...t.diagnostics);
    options.target = t.traversals;
  }
  if (!options.refresh && options.mode === "refresh-only" && refresh) {
    diagnostics.push(errorDiag("Incompatible plan options", 'The "refresh" option cannot be set to false when running a test in "refresh-only" mode.', refresh.range));
  }
  return { options, diagnostics };
}

function decodeRunModule(block: ContentBlock): { module: TestRun["module"]; diagnostics: Diagnostic[] } {
  const { content, diagnostics } = bodyContent(block.body, moduleSchema);
  const source = content.attributes.get("source");
  if (!source) {
    diagnostics.push(errorDiag('Missing "source" attribute for module block', "You must specify a source attribute when executing alternate modules during test executions.", block.defRange));
    return { module: undefined, diagnostics };
  }
  const raw = decodeString(source);
  diagnostics.push(...raw.diagnostics);
  if (raw.value === undefined) return { module: undefined, diagnostics };
  const parsed = parseModuleSource(raw.value);
  if (!parsed.ok) {
    diagnostics.push(errorDiag("Invalid module source address", `Failed to parse module source address: ${parsed.error}.`, source.range));
    return { module: undefined, diagnostics };
  }
  if (parsed.source.kind !== "local") {
    // Terrace loads alternate modules from local directories only (no installer in `test`).
    diagnostics.push(errorDiag("Invalid module source address", "Only local module sources are currently supported from within test run blocks in Terrace.", source.range));
    return { module: undefined, diagnostics };
  }
  return { module: { source: parsed.source, sourceRaw: raw.value, range: block.defRange }, diagnostics };
}

/**
 * A run block's `providers = { aws = aws.west }` (configs' decodePassedProviderConfigs, so its
 * errors are tofu's for either syntax): instance keys are not allowed on either side.
 */
function decodePassedProviders(attr: ContentAttribute): { providers: PassedProvider[]; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const providers: PassedProvider[] = [];
  const r = exprMap(attr.expr);
  diagnostics.push(...r.diagnostics);
  for (const item of r.items) {
    const k = decodeProviderConfigRef(item.key, "providers");
    const v = decodeProviderConfigRef(item.value, "providers");
    diagnostics.push(...k.diagnostics, ...v.diagnostics);
    if (!k.ref || !v.ref || hasErrors(k.diagnostics) || hasErrors(v.diagnostics)) continue;
    const child = k.ref;
    const parent = v.ref;
    if (child.keyExpression) {
      diagnostics.push(errorDiag("Invalid provider configuration reference", "A provider configuration reference must not include an instance key: the module's name for a provider is `name` or `name.alias`.", item.key.range));
      continue;
    }
    if (parent.keyExpression) {
      const named = providerKey(parent);
      const t = absTraversalForExpr(item.value);
      const written = hasErrors(t.diagnostics) ? `${named}[…]` : traversalString(t.traversal);
      diagnostics.push(
        errorDiag(
          "Provider instance key not allowed in run block",
          `The providers argument of a run block passes whole provider configurations to the module under test; ${written} names one instance of ${named}. Remove the instance key and pass ${named}: the module selects its instances itself.`,
          item.value.range,
        ),
      );
      continue;
    }
    providers.push({ inChild: { name: child.name, alias: child.alias, range: item.key.range }, inParent: { name: parent.name, alias: parent.alias, range: item.value.range, keyed: false } });
  }
  return { providers, diagnostics };
}
