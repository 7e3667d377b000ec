// What the console's scope offers and how references into it are checked, as OpenTofu's
// addrs.ParseRef plus the evaluator's static validation do for the root module: `var.*`,
// `local.*`, `path.*`, `terraform.workspace`; `count`, `each`, `self`, resources, data sources
// and modules are recognised so that references to them get OpenTofu's errors.
import { errorDiag, rangeBetween, type Diagnostic, type Range, type Traverser } from "../../hcl/index.js";
import { countAttrProblem, eachAttrProblem, nameSuggestion } from "../eval/index.js";

export interface ScopeNames {
  readonly variables: ReadonlySet<string>;
  readonly locals: ReadonlySet<string>;
}

const RESERVED = new Set(["template", "lazy", "arg"]);

const NO_NAMES: ScopeNames = { variables: new Set(), locals: new Set() };
const SYNTAX_SUMMARIES = new Set(["Invalid reference", "Reserved symbol name"]);

/**
 * The errors of a reference that is malformed whatever the scope holds (addrs.ParseRef's): they
 * hold for references the state answers too, and come before evaluation, so `try` cannot hide them.
 */
export function malformedReference(t: readonly Traverser[]): Diagnostic[] {
  return checkReference(t, NO_NAMES).filter((d) => SYNTAX_SUMMARIES.has(d.summary));
}

/** Diagnostics for one traversal read by a console expression; empty when the reference is valid. */
export function checkReference(t: readonly Traverser[], names: ScopeNames): Diagnostic[] {
  const root = t[0];
  if (!root || root.kind !== "Root") return [];
  const rootName = root.name;
  const all = rangeBetween(root.range, (t[t.length - 1] as Traverser).range);
  const single = (): { name: string } | Diagnostic => {
    const next = t[1];
    if (!next) {
      return errorDiag("Invalid reference", `The ${JSON.stringify(rootName)} object cannot be accessed directly. Instead, access one of its attributes.`, root.range);
    }
    if (next.kind !== "Attr") return errorDiag("Invalid reference", `The ${JSON.stringify(rootName)} object does not support this operation.`, next.range);
    return { name: next.name };
  };
  // For the single-attribute objects, a malformed reference is still validated with an empty
  // name first, so OpenTofu reports that (without a source range) before the parse error.
  const singleAttr = (validate: (name: string, range: Range | undefined) => Diagnostic[]): Diagnostic[] => {
    const s = single();
    if ("summary" in s) return [...validate("", undefined), s];
    return validate(s.name, rangeBetween(root.range, (t[1] as Traverser).range));
  };
  switch (rootName) {
    case "var":
      return singleAttr((name, range) => {
        if (names.variables.has(name)) return [];
        const sug = nameSuggestion(name, names.variables);
        const detail = sug
          ? `An input variable with the name ${JSON.stringify(name)} has not been declared. Did you mean ${JSON.stringify(sug)}?`
          : `An input variable with the name ${JSON.stringify(name)} has not been declared. This variable can be declared with a variable ${JSON.stringify(name)} {} block.`;
        return [errorDiag("Reference to undeclared input variable", detail, range)];
      });
    case "local":
      return singleAttr((name, range) => {
        if (names.locals.has(name)) return [];
        const sug = nameSuggestion(name, names.locals);
        const hint = sug ? ` Did you mean ${JSON.stringify(sug)}?` : "";
        return [errorDiag("Reference to undeclared local value", `A local value with the name ${JSON.stringify(name)} has not been declared.${hint}`, range)];
      });
    case "path":
      return singleAttr((name, range) => {
        if (name === "cwd" || name === "module" || name === "root") return [];
        const sug = nameSuggestion(name, ["cwd", "module", "root"]);
        const hint = sug ? ` Did you mean ${JSON.stringify(sug)}?` : "";
        return [errorDiag('Invalid "path" attribute', `The "path" object does not have an attribute named ${JSON.stringify(name)}.${hint}`, range)];
      });
    case "terraform":
      return singleAttr((name, range) => {
        if (name === "workspace") return [];
        const detail =
          name === "env"
            ? 'The terraform.env attribute was deprecated in v0.10 and removed in v0.12. The "state environment" concept was renamed to "workspace" in v0.12, and so the workspace name can now be accessed using the terraform.workspace attribute.'
            : `The "terraform" object does not have an attribute named ${JSON.stringify(name)}. The only supported attribute is terraform.workspace, the name of the currently-selected workspace.`;
        return [errorDiag('Invalid "terraform" attribute', detail, range)];
      });
    case "count":
      return singleAttr((name, range) => optional(countAttrProblem(name, false, range)));
    case "each":
      return singleAttr((name, range) => optional(eachAttrProblem(name, false, range)));
    case "self":
      return [
        errorDiag(
          'Invalid "self" reference',
          'The "self" object is not available in this context. This object can be used only in resource provisioner, connection, and postcondition blocks.',
          root.range,
        ),
      ];
    case "module": {
      const s = single();
      if ("summary" in s) return [s];
      return [
        errorDiag(
          "Reference to undeclared module",
          `No module call named ${JSON.stringify(s.name)} is declared in the root module.`,
          rangeBetween(root.range, (t[1] as Traverser).range),
        ),
      ];
    }
    case "data": {
      if (t.length < 3) {
        return [errorDiag("Invalid reference", 'The "data" object must be followed by two attribute names: the data source type and the resource name.', all)];
      }
      const type = t[1] as Traverser;
      const name = t[2] as Traverser;
      if (type.kind !== "Attr") return [errorDiag("Invalid reference", 'The "data" object does not support this operation.', type.range)];
      if (name.kind !== "Attr") {
        return [
          errorDiag(
            "Invalid reference",
            "A reference to a data source must be followed by at least one attribute access, specifying the resource name.",
            name.range,
          ),
        ];
      }
      return [
        errorDiag(
          "Reference to undeclared resource",
          `A data resource ${JSON.stringify(type.name)} ${JSON.stringify(name.name)} has not been declared in the root module.`,
          rangeBetween(root.range, name.range),
        ),
      ];
    }
    default: {
      if (RESERVED.has(rootName)) {
        return [
          errorDiag(
            "Reserved symbol name",
            `The symbol name ${JSON.stringify(rootName)} is reserved for use in a future OpenTofu version. If you are using a provider that already uses this as a resource type name, add the prefix "resource." to force interpretation as a resource type name.`,
            root.range,
          ),
        ];
      }
      const typeStep = rootName === "resource" ? t[1] : root;
      const rest = rootName === "resource" ? t.slice(1) : t;
      if (rest.length < 2 || !typeStep) {
        return [
          errorDiag(
            "Invalid reference",
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            rangeBetween((rest[0] ?? root).range, (rest[rest.length - 1] ?? root).range),
          ),
        ];
      }
      const name = rest[1] as Traverser;
      if (name.kind !== "Attr") {
        return [
          errorDiag(
            "Invalid reference",
            "A reference to a resource type must be followed by at least one attribute access, specifying the resource name.",
            name.range,
          ),
        ];
      }
      const typeName = typeStep.kind === "Index" ? "" : typeStep.name;
      return [
        errorDiag(
          "Reference to undeclared resource",
          `A managed resource ${JSON.stringify(typeName)} ${JSON.stringify(name.name)} has not been declared in the root module.`,
          rangeBetween(root.range, name.range),
        ),
      ];
    }
  }
}

const optional = (d: Diagnostic | undefined): Diagnostic[] => (d ? [d] : []);
