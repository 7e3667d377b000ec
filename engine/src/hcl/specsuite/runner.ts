// Runs one case of HCL's specsuite (`<name>.t` with `<name>.hcldec` and `<name>.hcl` and/or
// `<name>.hcl.json`), as hashicorp/hcl's hclspecsuite does with hcldec: decode the input with the
// spec, then compare the result, its type and the diagnostics (severity and exact ranges) with
// what the `.t` file expects. Files are read through the injected `readFile`, so this module
// stays free of Node APIs like the rest of `hcl`.
import type { Block, Body, Expression } from "../ast.js";
import { jsonBody, nativeBody, type SyntaxBody } from "../content.js";
import type { Diagnostic } from "../diagnostics.js";
import { parseJSONConfig } from "../json/parser.js";
import { parseConfig } from "../parse.js";
import type { Pos } from "../pos.js";
import { decode, specFromBlock, type Spec } from "./hcldec.js";
import { convert, EvalError, evaluate, typeEquals, typeExpr, typeOf, typeString, valuesEqual, type T, type V } from "./minival.js";

export interface CaseResult {
  ok: boolean;
  message: string;
}

interface ExpectedDiag {
  severity: "error" | "warning";
  from: Pos;
  to: Pos;
}

interface TestFile {
  result?: Expression;
  resultType?: T;
  diagnostics?: ExpectedDiag[];
}

function posFromBlock(b: Block | undefined): Pos {
  const get = (name: string): number => {
    const e = b?.body.attributes.find((a) => a.name === name)?.expr;
    const v = e ? evaluate(e, new Map()) : undefined;
    return v && v.k === "number" ? Number(v.r.n / v.r.d) : -1;
  };
  return { line: get("line"), column: get("column"), byte: get("byte") };
}

function loadTestFile(body: Body): TestFile {
  const tf: TestFile = {};
  for (const a of body.attributes) {
    if (a.name === "result") tf.result = a.expr;
    else if (a.name === "result_type") tf.resultType = typeExpr(a.expr);
  }
  const diagBlock = body.blocks.find((b) => b.type === "diagnostics");
  if (diagBlock) {
    tf.diagnostics = diagBlock.body.blocks.map((b) => ({
      severity: b.type === "warning" ? "warning" : "error",
      from: posFromBlock(b.body.blocks.find((x) => x.type === "from")),
      to: posFromBlock(b.body.blocks.find((x) => x.type === "to")),
    }));
  }
  return tf;
}

function fmtPos(p: Pos): string {
  return `${p.line}:${p.column}(${p.byte})`;
}

function describe(d: { severity: string; from: Pos; to: Pos }): string {
  return `${d.severity} ${fmtPos(d.from)}-${fmtPos(d.to)}`;
}

function compareDiags(expected: ExpectedDiag[], got: Diagnostic[]): string | undefined {
  const g = got.map((d) => ({
    severity: d.severity,
    from: d.subject?.start ?? { line: 0, column: 0, byte: 0 },
    to: d.subject?.end ?? { line: 0, column: 0, byte: 0 },
    summary: d.summary,
  }));
  const key = (d: { from: Pos; to: Pos }) => d.from.byte * 1e6 + d.to.byte;
  const e = [...expected].sort((a, b) => key(a) - key(b));
  g.sort((a, b) => key(a) - key(b));
  const same = (a: ExpectedDiag, b: ExpectedDiag) =>
    a.severity === b.severity &&
    a.from.line === b.from.line && a.from.column === b.from.column && a.from.byte === b.from.byte &&
    a.to.line === b.to.line && a.to.column === b.to.column && a.to.byte === b.to.byte;
  if (e.length !== g.length || e.some((d, i) => !same(d, g[i] as ExpectedDiag))) {
    return `diagnostics differ: expected [${e.map(describe).join("; ")}], got [${g.map((d) => `${describe(d)} ${d.summary}`).join("; ")}]`;
  }
  return undefined;
}

function runInput(body: SyntaxBody, parseDiags: Diagnostic[], spec: Spec, vars: ReadonlyMap<string, V>, tf: TestFile): string | undefined {
  const diags = [...parseDiags];
  let value: V | undefined;
  // Like hcldec, a file that fails to parse is not decoded.
  if (!parseDiags.some((d) => d.severity === "error")) value = decode(body, spec, vars, diags);
  if (tf.diagnostics || diags.length > 0) {
    const msg = compareDiags(tf.diagnostics ?? [], diags);
    if (msg) return msg;
  }
  if (tf.diagnostics?.some((d) => d.severity === "error") || !value) return undefined;
  if (tf.resultType && !typeEquals(typeOf(value), tf.resultType)) {
    return `result type is ${typeString(typeOf(value))}, expected ${typeString(tf.resultType)}`;
  }
  if (tf.result) {
    let want = evaluate(tf.result, new Map());
    if (tf.resultType) want = convert(want, tf.resultType);
    if (!valuesEqual(value, want)) return "result differs from the expected value";
  }
  return undefined;
}

/** Runs the case whose `.t` file is at `tPath`. */
export function runSpecTest(tPath: string, readFile: (path: string) => string | undefined): CaseResult {
  try {
    const tSrc = readFile(tPath);
    if (tSrc === undefined) return { ok: false, message: "test file not found" };
    const t = parseConfig(tSrc, tPath);
    if (t.diagnostics.length > 0) return { ok: false, message: `test file: ${t.diagnostics[0]?.summary}` };
    const tf = loadTestFile(t.result.body);
    const base = tPath.slice(0, -2);
    const specSrc = readFile(`${base}.hcldec`);
    if (specSrc === undefined) return { ok: false, message: "missing .hcldec file" };
    const s = parseConfig(specSrc, `${base}.hcldec`);
    if (s.diagnostics.length > 0) return { ok: false, message: `spec file: ${s.diagnostics[0]?.summary}` };
    const vars = new Map<string, V>();
    for (const vb of s.result.body.blocks.filter((b) => b.type === "variables")) {
      for (const a of vb.body.attributes) vars.set(a.name, evaluate(a.expr, new Map()));
    }
    const specBlock = s.result.body.blocks.find((b) => b.type !== "variables");
    if (!specBlock) return { ok: false, message: "spec file has no spec" };
    const spec = specFromBlock(specBlock);
    const failures: string[] = [];
    let inputs = 0;
    const native = readFile(`${base}.hcl`);
    if (native !== undefined) {
      inputs++;
      const p = parseConfig(native, `${base}.hcl`);
      const msg = runInput(nativeBody(p.result.body), p.diagnostics, spec, vars, tf);
      if (msg) failures.push(`native: ${msg}`);
    }
    const json = readFile(`${base}.hcl.json`);
    if (json !== undefined) {
      inputs++;
      const p = parseJSONConfig(json, `${base}.hcl.json`);
      const msg = runInput(jsonBody(p.result.root), p.diagnostics, spec, vars, tf);
      if (msg) failures.push(`json: ${msg}`);
    }
    if (inputs === 0) return { ok: false, message: "no .hcl or .hcl.json input file" };
    return failures.length > 0 ? { ok: false, message: failures.join("; ") } : { ok: true, message: "" };
  } catch (err) {
    if (err instanceof EvalError) return { ok: false, message: `evaluation: ${err.message}` };
    throw err;
  }
}
