// Static evaluation as a library: for_each rules, the tree (child module calls evaluated in their
// parents), root module variables with prompting once per variable and -input=false, and the
// library parts of conformance cases 033 (init with var.src) and 034 (module source and backend
// path from -var).
import { describe, expect, it } from "vitest";
import { parseExpression } from "../../hcl/index.js";
import { EvalContext } from "../../lang/eval/index.js";
import { DynamicPseudoType, SENSITIVE, StringType, tupleOf, mapVal, objectVal, nullVal, numberIntVal, setVal, stringVal, tupleVal, unknownVal, withMarks, setOf, type Value } from "../../values/index.js";
import { MemoryFS } from "../fs.js";
import { Loader } from "../loader.js";
import { moduleSourceString } from "../module_source.js";
import type { VariablePrompter } from "../inputvars/index.js";
import { decodeBackendConfig } from "./backend.js";
import type { StaticBlockSchema } from "./blockspec.js";
import { evaluateForEachExpression } from "./foreach.js";
import { describeValue, diagString } from "./harness.js";
import { RootModuleInputs, inputVariableDeclaration, loadConfigWithRootInputs, rootModuleCall, withRootInputs } from "./variables.js";
import { StaticEvaluator } from "./evaluator.js";
import { newModule } from "../module.js";
import { Parser } from "../parser.js";

function forEach(value: Value) {
  const expr = parseExpression("local.v", "for_each.tf").result;
  return evaluateForEachExpression(expr, () => ({ ctx: EvalContext.of({ local: objectVal({ v: value }) }), diagnostics: [] }));
}

describe("for_each rules", () => {
  it("accepts maps, objects and sets of strings, keyed in order", () => {
    const m = forEach(mapVal({ b: stringVal("B"), a: stringVal("A") }));
    expect(m.diagnostics).toEqual([]);
    expect([...m.instances.keys()]).toEqual(["a", "b"]);
    const s = forEach(setVal([stringVal("x"), stringVal("y")]));
    expect([...s.instances].map(([k, v]) => [k, describeValue(v)])).toEqual([
      ["x", 'string "x"'],
      ["y", 'string "y"'],
    ]);
  });

  const cases: Array<[string, Value, string]> = [
    ["null", nullVal(setOf(StringType)), 'The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.'],
    // `for_each = null`: an untyped null is reported as null, not as a value of type dynamic.
    ["an untyped null", nullVal(DynamicPseudoType), 'The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.'],
    ["a null tuple", nullVal(tupleOf([StringType])), 'The given "for_each" argument value is unsuitable: the given "for_each" argument value is null. A map, or set of strings is allowed.'],
    ["a tuple", tupleVal([stringVal("a")]), 'The given "for_each" argument value is unsuitable: the "for_each" argument must be a map, or set of strings, and you have provided a value of type tuple.'],
    [
      "sensitive",
      withMarks(mapVal({ a: stringVal("1") }), SENSITIVE),
      "Sensitive values, or values derived from sensitive values, cannot be used as for_each arguments. If used, the sensitive value could be exposed as a resource instance key.",
    ],
    [
      "a set of numbers",
      setVal([numberIntVal(1)]),
      'The given "for_each" argument value is unsuitable: "for_each" supports sets of strings, but you have provided a set containing type number.',
    ],
    [
      "unknown",
      unknownVal(setOf(StringType)),
      "The \"for_each\" set includes values derived from resource attributes that cannot be determined until apply, and so OpenTofu cannot determine the full set of keys that will identify the instances of this resource.\n\nWhen working with unknown values in for_each, it's better to use a map value where the keys are defined statically in your configuration and where only the values contain apply-time results.\n\nAlternatively, you could use the -target option to first apply only the resources that for_each depends on, and then apply normally to converge.",
    ],
  ];
  for (const [name, value, detail] of cases) {
    it(`refuses ${name}`, () => {
      const r = forEach(value);
      expect(r.diagnostics.map((d) => [d.summary, d.detail, diagString(d).split(":")[0]])).toEqual([["Invalid for_each argument", detail, "for_each.tf"]]);
      expect(r.instances.size).toBe(0);
    });
  }
});

const INIT_SINGLE = { "main.tf": 'variable "src" {\n\ttype = string\n}\n\nmodule "mod" {\n\tsource = var.src\n}\n', "mod/mod.tf": "" };
const INIT_MULTIPLE = {
  "main.tf": 'variable "src" {\n\ttype = string\n}\n\nmodule "mod" {\n\tsource = var.src\n}\n\nmodule "mod2" {\n\tsource = var.src\n}\n',
  "mod/mod.tf": "",
};

function prompter(answers: string[]): VariablePrompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    input: async (req) => {
      asked.push(req.id);
      return answers.shift();
    },
  };
}

describe("init with module source from var.src (case 033, library level)", () => {
  it("prompts for a missing required variable", async () => {
    const p = prompter(["./mod"]);
    const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(INIT_SINGLE) }), ".", new RootModuleInputs(new Map(), p), "default");
    expect(r.diagnostics.map(diagString)).toEqual([]);
    expect(p.asked).toEqual(["var.src"]);
    expect(r.config?.children.get("mod")?.module.sourceDir).toBe("mod");
  });

  it("prompts only once for a variable two module calls use", async () => {
    const p = prompter(["./mod"]);
    const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(INIT_MULTIPLE) }), ".", new RootModuleInputs(new Map(), p), "default");
    expect(r.diagnostics.map(diagString)).toEqual([]);
    expect(p.asked).toEqual(["var.src"]);
    expect([...(r.config?.children.keys() ?? [])]).toEqual(["mod", "mod2"]);
  });

  it("with -input=false fails to request input, then names the dependent", async () => {
    const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(INIT_SINGLE) }), ".", new RootModuleInputs(new Map()), "default");
    expect(r.config).toBeUndefined();
    expect(r.diagnostics.map(diagString)).toEqual([
      "main.tf:1,1-15: Failed to request input from user for variable var.src; ",
      "main.tf:6,11-18: Unable to compute static value; module.mod.source depends on var.src which is not available",
    ]);
  });

  it("takes -var src=./mod", async () => {
    const inputs = new RootModuleInputs(new Map([["src", { kind: "string", name: "src", raw: "./mod", source: "cli-arg" }]]));
    const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(INIT_SINGLE) }), ".", inputs, "default");
    expect(r.diagnostics.map(diagString)).toEqual([]);
    const mod = r.config?.children.get("mod");
    expect(mod?.sourceAddr && moduleSourceString(mod.sourceAddr)).toBe("./mod");
  });

  it("does not ask again when the answer was empty-handed (a failed prompt)", async () => {
    const p = prompter([]);
    const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(INIT_MULTIPLE) }), ".", new RootModuleInputs(new Map(), p), "default");
    expect(p.asked).toEqual(["var.src"]);
    expect(r.diagnostics.map((d) => d.summary)).toEqual([
      "Failed to request input from user for variable var.src",
      "Unable to compute static value",
      "Failed to request input from user for variable var.src",
      "Unable to compute static value",
    ]);
  });
});

const PATH_SCHEMA: StaticBlockSchema = { attributes: new Map([["path", { type: StringType, required: false }]]), blockTypes: new Map() };

describe("static variables across commands (case 034, library level)", () => {
  for (const typed of [false, true]) {
    const files = {
      "main.tf": `variable "state_path" {}\n\nvariable "src" {${typed ? "\n\ttype = string\n" : ""}}\n\nterraform {\n\tbackend "local" {\n\t\tpath = var.state_path\n\t}\n}\n\nmodule "mod" {\n\tsource = var.src\n}\n\noutput "out" {\n\tvalue = module.mod.out\n}\n`,
      "mod/mod.tf": 'output "out" {\n\tvalue = "placeholder"\n}\n',
    };
    it(`${typed ? "typed" : "untyped"}: without -var the module source and the backend are not available`, async () => {
      const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(files) }), ".", new RootModuleInputs(new Map()), "default");
      expect(r.diagnostics.some((d) => d.detail === "module.mod.source depends on var.src which is not available")).toBe(true);
      const root = r.rootModule;
      if (!root?.backend || !root.staticEvaluator) throw new Error("no backend or evaluator");
      const b = decodeBackendConfig(root.backend, root.staticEvaluator, PATH_SCHEMA);
      expect(b.diagnostics.map((d) => d.detail)).toContain("backend.local depends on var.state_path which is not available");
    });
    it(`${typed ? "typed" : "untyped"}: with -var the tree and the backend path resolve`, async () => {
      const inputs = new RootModuleInputs(
        new Map([
          ["state_path", { kind: "string", name: "state_path", raw: "custom.tfstate", source: "cli-arg" }],
          ["src", { kind: "string", name: "src", raw: "./mod", source: "cli-arg" }],
        ]),
      );
      const r = await loadConfigWithRootInputs(new Loader({ fs: new MemoryFS(files) }), ".", inputs, "default");
      expect(r.diagnostics.map(diagString)).toEqual([]);
      expect(r.config?.children.get("mod")?.module.outputs.has("out")).toBe(true);
      const root = r.rootModule;
      if (!root?.backend || !root.staticEvaluator) throw new Error("no backend or evaluator");
      const b = decodeBackendConfig(root.backend, root.staticEvaluator, PATH_SCHEMA);
      expect(b.diagnostics).toEqual([]);
      expect(describeValue(b.value)).toBe('object({path=string}) {path = "custom.tfstate"}');
    });
  }
});

describe("withRootInputs", () => {
  it("asks for what a backend block needs, once, and evaluates it again with the answer", async () => {
    const fs = new MemoryFS({ "main.tf": 'variable "p" {}\n\nterraform {\n  backend "local" {\n    path = "${var.p}/state"\n  }\n}\n' });
    const root = new Loader({ fs }).parser.loadConfigDir(".").module;
    if (!root?.backend) throw new Error("no backend");
    const backend = root.backend;
    const p = prompter(["answers"]);
    const inputs = new RootModuleInputs(new Map(), p);
    const evaluator = new StaticEvaluator(root, rootModuleCall(inputs, ".", "default"));
    let runs = 0;
    const b = await withRootInputs(inputs, () => {
      runs++;
      return decodeBackendConfig(backend, evaluator, PATH_SCHEMA);
    });
    expect(p.asked).toEqual(["var.p"]);
    expect(runs).toBe(2);
    expect(b.diagnostics).toEqual([]);
    expect(describeValue(b.value)).toBe('object({path=string}) {path = "answers/state"}');
  });
});

describe("the module tree", () => {
  const defaults = new RootModuleInputs(new Map());

  it("evaluates a child's arguments in its parent, down the tree", async () => {
    const fs = new MemoryFS({
      "main.tf": 'locals {\n  base = "./modules"\n}\nmodule "child" {\n  source = "${local.base}/child"\n  dir    = "${local.base}/leaf"\n}\n',
      "modules/child/main.tf": 'variable "dir" {\n  type = string\n}\nmodule "leaf" {\n  source = "../../${var.dir}"\n}\n',
      "modules/leaf/main.tf": 'output "where" {\n  value = path.module\n}\n',
    });
    const r = await loadConfigWithRootInputs(new Loader({ fs }), ".", defaults, "default");
    expect(r.diagnostics.map(diagString)).toEqual([]);
    expect(r.config?.children.get("child")?.children.get("leaf")?.module.sourceDir).toBe("modules/leaf");
  });

  it("names the child module in identifiers and reports missing arguments", async () => {
    const fs = new MemoryFS({
      "main.tf": 'module "child" {\n  source = "./child"\n}\n',
      "child/main.tf":
        'variable "need" {\n  type = string\n}\nresource "test_object" "src" {}\nprovider "test" {\n  alias    = "multi"\n  for_each = test_object.src.test_map\n}\nmodule "g" {\n  source = var.need\n}\n',
    });
    const r = await loadConfigWithRootInputs(new Loader({ fs }), ".", defaults, "default");
    expect(r.diagnostics.map(diagString)).toEqual([
      "main.tf:1,16-16: Missing required variable in module call; ",
      "child/main.tf:10,12-20: Unable to compute static value; module.child:module.g.source depends on module.child:var.need which is not available",
      "child/main.tf:7,14-29: Dynamic value in static context; Unable to use test_object.src in static context, which is required by module.child:provider.test.multi.for_each",
    ]);
  });

  it("refuses a const = false variable from the root call", async () => {
    const fs = new MemoryFS({ "main.tf": 'variable "p" {\n  const   = false\n  default = "./x"\n}\nmodule "x" {\n  source = var.p\n}\n' });
    const r = await loadConfigWithRootInputs(new Loader({ fs }), ".", defaults, "default");
    expect(r.diagnostics.map(diagString)).toEqual([
      'main.tf:6,12-17: Unable to use variable in static context; The variable "p" cannot be used in a static context, because it is declared as "const = false".',
    ]);
  });

  it("evaluates JSON-syntax sources as templates", async () => {
    const fs = new MemoryFS({ "main.tf.json": '{"variable": {"p": {"default": "./x"}}, "module": {"x": {"source": "${var.p}"}}}', "x/main.tf": "" });
    const r = await loadConfigWithRootInputs(new Loader({ fs }), ".", defaults, "default");
    expect(r.diagnostics.map(diagString)).toEqual([]);
    expect(r.config?.children.get("x")?.module.sourceDir).toBe("x");
  });

  it("keeps the literal behaviour without a static call", () => {
    const fs = new MemoryFS({ "main.tf": 'variable "p" {\n  default = "./x"\n}\nmodule "x" {\n  source = var.p\n}\n' });
    const r = new Loader({ fs }).loadConfig(".");
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Module source not known"]);
  });
});

describe("inputVariableDeclaration", () => {
  it("maps a decoded variable for inputvars", () => {
    const parser = new Parser(new MemoryFS({ "v.tf": 'variable "x" {\n  type = list(string)\n  default = ["a"]\n  sensitive = true\n  description = "d"\n  validation {\n    condition = length(var.x) > 0\n    error_message = "empty"\n  }\n}\n' }));
    const f = parser.loadConfigFile("v.tf");
    if (!f.file) throw new Error("no file");
    const v = newModule([f.file], [], ".").module.variables.get("x");
    if (!v) throw new Error("no variable");
    const d = inputVariableDeclaration(v);
    expect([d.name, d.description, d.parsingMode, d.sensitive, d.ephemeral, d.nullable, d.validations.length, d.default && describeValue(d.default)]).toEqual([
      "x",
      "d",
      "hcl",
      true,
      false,
      true,
      1,
      'list(string) ["a"]',
    ]);
  });
});
