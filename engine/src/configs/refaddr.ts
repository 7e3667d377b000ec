// A small static reading of the addresses `moved`, `removed` and `import` blocks name, enough to
// check them at load time: which module path and which resource (if any) a traversal names.
// The addrs module owns full address parsing (move endpoints, instance keys); this only
// classifies.
import { errorDiag, type Diagnostic, type Range, type Traverser } from "../hcl/index.js";
import type { ResourceMode } from "./resource.js";
import { traversalRange } from "./body.js";

export interface StaticResourceAddr {
  mode: ResourceMode;
  type: string;
  name: string;
}

export interface StaticAddr {
  /** Module call names from the root, instance keys dropped. */
  module: string[];
  /** Undefined when the address names a module. */
  resource: StaticResourceAddr | undefined;
  /** Whether any step carries an instance key. */
  hasKeys: boolean;
  range: Range | undefined;
}

function name(t: Traverser | undefined): string | undefined {
  return t && t.kind !== "Index" ? t.name : undefined;
}

/** Reads `module.a[0].module.b.aws_instance.x[1]`, `data.x.y`, `module.a`. */
export function parseStaticAddr(traversal: readonly Traverser[]): { addr: StaticAddr | undefined; diagnostics: Diagnostic[] } {
  const range = traversalRange(traversal);
  const addr: StaticAddr = { module: [], resource: undefined, hasKeys: false, range };
  let i = 0;
  while (name(traversal[i]) === "module") {
    const call = traversal[i + 1];
    if (!call || call.kind === "Index") {
      return { addr: undefined, diagnostics: [errorDiag("Invalid address", "Prefix \"module.\" must be followed by a module name.", traversal[i]?.range ?? range)] };
    }
    addr.module.push(call.name);
    i += 2;
    if (traversal[i]?.kind === "Index") {
      addr.hasKeys = true;
      i++;
    }
  }
  if (i >= traversal.length) return { addr, diagnostics: [] };
  let mode: ResourceMode = "managed";
  const first = name(traversal[i]);
  if (first === "data" || first === "ephemeral") {
    mode = first;
    i++;
  }
  const type = name(traversal[i]);
  const rname = name(traversal[i + 1]);
  if (type === undefined || rname === undefined) {
    return {
      addr: undefined,
      diagnostics: [errorDiag("Invalid address", "Resource specification must include a resource type and name.", traversal[i]?.range ?? range)],
    };
  }
  i += 2;
  if (traversal[i]?.kind === "Index") {
    addr.hasKeys = true;
    i++;
  }
  if (i < traversal.length) {
    return { addr: undefined, diagnostics: [errorDiag("Invalid address", "Unexpected extra operators after address.", traversal[i]?.range ?? range)] };
  }
  addr.resource = { mode, type, name: rname };
  return { addr, diagnostics: [] };
}
