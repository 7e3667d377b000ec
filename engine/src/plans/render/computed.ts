// Computed diffs and their renderers (OpenTofu's jsonformat/computed and computed/renderers):
// a Diff is an action, a replace flag and a renderer that prints it at an indent.
import { goQuote } from "../../values/index.js";
import type { Action } from "../action.js";
import { diffActionSymbol, type Colorize } from "./format.js";
import { JNumber, parseJSON, type J } from "./json.js";
import { processSlice } from "./collections.js";
import { alwaysMatcher, emptyMatcher, type Change } from "./structured.js";

export interface RenderOpts {
  colorize: Colorize;
  overrideNullSuffix: boolean;
  overrideForcesReplacement: boolean;
  showUnchangedChildren: boolean;
  hideDiffActionSymbols: boolean;
  showSensitive: boolean;
}

export function newRenderOpts(colorize: Colorize, showSensitive: boolean): RenderOpts {
  return { colorize, showSensitive, overrideNullSuffix: false, overrideForcesReplacement: false, showUnchangedChildren: false, hideDiffActionSymbols: false };
}

/** Clone: everything but OverrideForcesReplacement, which never cascades. */
export function cloneOpts(o: RenderOpts): RenderOpts {
  return { ...o, overrideForcesReplacement: false };
}

export interface Renderer {
  readonly kind: string;
  renderHuman(diff: Diff, indent: number, opts: RenderOpts): string;
  warningsHuman(diff: Diff, indent: number, opts: RenderOpts): string[];
}

export interface Diff {
  renderer: Renderer;
  action: Action;
  replace: boolean;
}

export function newDiff(renderer: Renderer, action: Action, replace: boolean): Diff {
  return { renderer, action, replace };
}

export function renderDiff(d: Diff, indent: number, opts: RenderOpts): string {
  return d.renderer.renderHuman(d, indent, opts);
}

function warnings(d: Diff, indent: number, opts: RenderOpts): string[] {
  return d.renderer.warningsHuman(d, indent, opts);
}

const noWarnings = (): string[] => [];

// ---------------------------------------------------------------------------------------------
// util.go

function nullSuffix(action: Action, opts: RenderOpts): string {
  return !opts.overrideNullSuffix && action === "Delete" ? opts.colorize.color(" [dark_gray]-> null[reset]") : "";
}

function forcesReplacement(replace: boolean, opts: RenderOpts): string {
  return replace || opts.overrideForcesReplacement ? opts.colorize.color(" [red]# forces replacement[reset]") : "";
}

export function formatIndent(indent: number): string {
  return "    ".repeat(indent);
}

function unchanged(keyword: string, count: number, opts: RenderOpts): string {
  return opts.colorize.color(`[dark_gray]# (${count} unchanged ${keyword}${count === 1 ? "" : "s"} hidden)[reset]`);
}

const IDENT = /^[\p{ID_Start}_][\p{ID_Continue}-]*$/u;

/** Go's %q (strconv.Quote). */
export function quote(s: string): string {
  return goQuote(s);
}

export function ensureValidAttributeName(name: string): string {
  return IDENT.test(name) ? name : quote(name);
}

export function writeDiffActionSymbol(action: Action, opts: RenderOpts): string {
  if (opts.hideDiffActionSymbols) return "";
  return `${opts.colorize.color(diffActionSymbol(action))} `;
}

const utf8 = new TextEncoder();
function byteLen(s: string): number {
  return utf8.encode(s).length;
}

/** fmt's %-*s: pads to `width` code points (while callers measured widths in bytes, as Go does). */
function padRight(s: string, width: number): string {
  const n = [...s].length;
  return n >= width ? s : s + " ".repeat(width - n);
}

function sortedKeys(m: ReadonlyMap<string, unknown>): string[] {
  return [...m.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

const importantAttributes = new Set(["id", "name", "tags"]);

// ---------------------------------------------------------------------------------------------
// primitive.go and string.go

interface EvaluatedString {
  str: string;
  json?: J;
  isMultiline: boolean;
  isNull: boolean;
}

function evaluatePrimitiveString(value: J, opts: RenderOpts): EvaluatedString {
  if (value === null) return { str: opts.colorize.color("[dark_gray]null[reset]"), isNull: true, isMultiline: false };
  const s = value as string;
  if (s.startsWith("{") || s.startsWith("[")) {
    const parsed = parseFirstJSON(s);
    if (parsed !== undefined) return { str: s, json: parsed, isMultiline: false, isNull: false };
  }
  if (s.includes("\n")) return { str: s.trim(), isMultiline: true, isNull: false };
  return { str: s, isMultiline: false, isNull: false };
}

/** json.Decoder.Decode reads the first value and ignores what follows it. */
function parseFirstJSON(s: string): J | undefined {
  const r = parseJSON(s);
  if (r.ok) return r.value;
  // Trailing data after a complete value is accepted by Decode: find the value's end.
  let depth = 0;
  let inStr = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inStr) {
      if (c === "\\") i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) {
        const r2 = parseJSON(s.slice(0, i + 1));
        return r2.ok ? r2.value : undefined;
      }
    }
  }
  return undefined;
}

function renderSimple(e: EvaluatedString): string {
  return e.isNull ? e.str : quote(e.str);
}

function renderPrimitiveValue(value: J, t: "bool" | "number", opts: RenderOpts): string {
  if (value === null) return opts.colorize.color("[dark_gray]null[reset]");
  if (t === "bool") return value === true ? "true" : "false";
  return value instanceof JNumber ? value.text : String(value);
}

export type PrimitiveType = "string" | "number" | "bool" | "nil";

export function primitive(before: J, after: J, ctype: PrimitiveType): Renderer {
  return {
    kind: "primitive",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      if (ctype === "string") return renderStringDiff(before, after, diff, indent, opts);
      if (ctype === "nil") {
        // jsondiff uses cty.NilType for JSON nulls; they print as null.
        const n = opts.colorize.color("[dark_gray]null[reset]");
        if (diff.action === "Delete") return `${n}${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
        if (diff.action === "Create" || diff.action === "NoOp") return `${n}${forcesReplacement(diff.replace, opts)}`;
        return `${n} ${opts.colorize.color("[yellow]->[reset]")} ${n}${forcesReplacement(diff.replace, opts)}`;
      }
      const b = renderPrimitiveValue(before, ctype, opts);
      const a = renderPrimitiveValue(after, ctype, opts);
      switch (diff.action) {
        case "Create":
          return `${a}${forcesReplacement(diff.replace, opts)}`;
        case "Delete":
          return `${b}${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
        case "NoOp":
          return `${b}${forcesReplacement(diff.replace, opts)}`;
        default:
          return `${b} ${opts.colorize.color("[yellow]->[reset]")} ${a}${forcesReplacement(diff.replace, opts)}`;
      }
    },
  };
}

function renderStringDiff(before: J, after: J, diff: Diff, indent: number, opts: RenderOpts): string {
  let lines: string[] = [];
  const prefix = (action: Action): string => `${formatIndent(indent + 1)}${writeDiffActionSymbol(action, opts)}`;
  const splitLines = (s: string): string[] => {
    const ls = s.split("\n");
    return ls.map((l) => `${prefix("NoOp")}${l}`);
  };
  switch (diff.action) {
    case "Create":
    case "NoOp": {
      const str = evaluatePrimitiveString(after, opts);
      if (str.json !== undefined) {
        return diff.action === "NoOp" ? renderStringDiffAsJson(diff, indent, opts, str, str) : renderStringDiffAsJson(diff, indent, opts, undefined, str);
      }
      if (!str.isMultiline) return `${renderSimple(str)}${forcesReplacement(diff.replace, opts)}`;
      lines = splitLines(str.str);
      break;
    }
    case "Delete": {
      const str = evaluatePrimitiveString(before, opts);
      if (str.isNull) return `${renderSimple(str)}${forcesReplacement(diff.replace, opts)}`;
      if (str.json !== undefined) return renderStringDiffAsJson(diff, indent, opts, str, undefined);
      if (!str.isMultiline) return `${renderSimple(str)}${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
      lines = splitLines(str.str);
      break;
    }
    default: {
      const b = evaluatePrimitiveString(before, opts);
      const a = evaluatePrimitiveString(after, opts);
      if (b.json !== undefined && a.json !== undefined) return renderStringDiffAsJson(diff, indent, opts, b, a);
      if (b.json !== undefined || a.json !== undefined) {
        return renderDiff(
          newDiff(typeChange(newDiff(primitive(before, null, "string"), "Delete", false), newDiff(primitive(null, after, "string"), "Create", false)), diff.action, diff.replace),
          indent,
          opts,
        );
      }
      if (!b.isMultiline && !a.isMultiline) {
        return `${renderSimple(b)} ${opts.colorize.color("[yellow]->[reset]")} ${renderSimple(a)}${forcesReplacement(diff.replace, opts)}`;
      }
      const bl = b.str.split("\n");
      const al = a.str.split("\n");
      processSlice(
        bl,
        al,
        (bi, ai) => {
          if (bi < 0 || bi >= bl.length) lines.push(`${prefix("Create")}${al[ai] as string}`);
          else if (ai < 0 || ai >= al.length) lines.push(`${prefix("Delete")}${bl[bi] as string}`);
          else lines.push(`${prefix("NoOp")}${bl[bi] as string}`);
        },
        () => false,
        (x, y) => x === y,
      );
    }
  }
  return `<<-EOT${forcesReplacement(diff.replace, opts)}\n${lines.join("\n")}\n${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}EOT${nullSuffix(diff.action, opts)}`;
}

/** Set by jsondiff.ts to avoid an import cycle (renderers.RendererJsonOpts().Transform). */
export const jsonTransform: { fn: ((c: Change) => Diff) | undefined } = { fn: undefined };

function renderStringDiffAsJson(diff: Diff, indent: number, opts: RenderOpts, before: EvaluatedString | undefined, after: EvaluatedString | undefined): string {
  const transform = jsonTransform.fn;
  if (!transform) throw new Error("JSON transform not registered");
  const jsonDiff = transform({
    beforeExplicit: diff.action !== "Create",
    afterExplicit: diff.action !== "Delete",
    before: before?.json ?? null,
    after: after?.json ?? null,
    unknown: false,
    beforeSensitive: false,
    afterSensitive: false,
    replacePaths: emptyMatcher(false),
    relevantAttributes: alwaysMatcher(),
  });
  let action = diff.action;
  const jsonOpts = cloneOpts(opts);
  jsonOpts.overrideNullSuffix = true;
  let whitespace = "";
  let replace = "";
  if (jsonDiff.action === "NoOp" && diff.action === "Update") {
    whitespace = diff.replace ? " # whitespace changes force replacement" : " # whitespace changes";
    jsonOpts.showUnchangedChildren = true;
    action = "NoOp";
  } else {
    replace = forcesReplacement(diff.replace, opts);
  }
  const rendered = renderDiff(jsonDiff, indent + 1, jsonOpts);
  if (diff.action === "Create" || diff.action === "Delete") action = "NoOp";
  if (rendered.includes("\n")) {
    return `jsonencode(${whitespace}\n${formatIndent(indent + 1)}${writeDiffActionSymbol(action, opts)}${rendered}${replace}\n${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)})${nullSuffix(diff.action, opts)}`;
  }
  return `jsonencode(${rendered})${whitespace}${replace}`;
}

// ---------------------------------------------------------------------------------------------
// Collections

function objectLike(attributes: Map<string, Diff>, overrideNull: boolean): Renderer {
  return {
    kind: "object",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      if (attributes.size === 0) return `{}${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
      const attributeOpts = cloneOpts(opts);
      attributeOpts.overrideNullSuffix = overrideNull;
      let maxLen = 0;
      const escaped = new Map<string, string>();
      for (const k of attributes.keys()) {
        const e = ensureValidAttributeName(k);
        escaped.set(k, e);
        maxLen = Math.max(maxLen, byteLen(e));
      }
      let unchangedCount = 0;
      let buf = `{${forcesReplacement(diff.replace, opts)}\n`;
      for (const key of sortedKeys(attributes)) {
        const attr = attributes.get(key) as Diff;
        if (importantAttributes.has(key)) {
          const io = cloneOpts(attributeOpts);
          io.showUnchangedChildren = true;
          for (const w of warnings(attr, indent + 1, io)) buf += `${formatIndent(indent + 1)}${w}\n`;
          buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(attr.action, io)}${padRight(escaped.get(key) as string, maxLen)} = ${renderDiff(attr, indent + 1, io)}\n`;
          continue;
        }
        if (attr.action === "NoOp" && !opts.showUnchangedChildren) {
          unchangedCount++;
          continue;
        }
        for (const w of warnings(attr, indent + 1, opts)) buf += `${formatIndent(indent + 1)}${w}\n`;
        buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(attr.action, attributeOpts)}${padRight(escaped.get(key) as string, maxLen)} = ${renderDiff(attr, indent + 1, attributeOpts)}\n`;
      }
      if (unchangedCount > 0) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("attribute", unchangedCount, opts)}\n`;
      buf += `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}}${nullSuffix(diff.action, opts)}`;
      return buf;
    },
  };
}

export function object(attributes: Map<string, Diff>): Renderer {
  return objectLike(attributes, true);
}

export function nestedObject(attributes: Map<string, Diff>): Renderer {
  return objectLike(attributes, false);
}

function mapLike(elements: Map<string, Diff>, overrideNull: boolean, overrideForces: boolean, alignKeys: boolean): Renderer {
  return {
    kind: "map",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      const forcesSelf = diff.replace && !overrideForces;
      const forcesChildren = diff.replace && overrideForces;
      if (elements.size === 0) return `{}${nullSuffix(diff.action, opts)}${forcesReplacement(forcesSelf, opts)}`;
      const escaped = new Map<string, string>();
      let maxLen = 0;
      for (const k of elements.keys()) {
        const e = quote(k);
        escaped.set(k, e);
        maxLen = Math.max(maxLen, byteLen(e));
      }
      let unchangedCount = 0;
      const elementOpts = cloneOpts(opts);
      elementOpts.overrideNullSuffix = diff.action === "Delete" || overrideNull;
      elementOpts.overrideForcesReplacement = forcesChildren;
      let buf = `{${forcesReplacement(forcesSelf, opts)}\n`;
      for (const key of sortedKeys(elements)) {
        const el = elements.get(key) as Diff;
        if (el.action === "NoOp" && !opts.showUnchangedChildren) {
          unchangedCount++;
          continue;
        }
        for (const w of warnings(el, indent + 1, opts)) buf += `${formatIndent(indent + 1)}${w}\n`;
        const comma = el.renderer.kind === "object" ? "," : "";
        const k = alignKeys ? padRight(escaped.get(key) as string, maxLen) : (escaped.get(key) as string);
        buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(el.action, elementOpts)}${k} = ${renderDiff(el, indent + 1, elementOpts)}${comma}\n`;
      }
      if (unchangedCount > 0) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("element", unchangedCount, opts)}\n`;
      buf += `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}}${nullSuffix(diff.action, opts)}`;
      return buf;
    },
  };
}

export function mapRenderer(elements: Map<string, Diff>): Renderer {
  return mapLike(elements, false, false, true);
}

export function nestedMap(elements: Map<string, Diff>): Renderer {
  return mapLike(elements, true, true, false);
}

function listLike(elements: Diff[], displayContext: boolean): Renderer {
  return {
    kind: "list",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      if (elements.length === 0) return `[]${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
      const elementOpts = cloneOpts(opts);
      elementOpts.overrideNullSuffix = true;
      const unchangedOpts = cloneOpts(opts);
      unchangedOpts.showUnchangedChildren = true;
      let unchangedEls: Diff[] = [];
      let renderNext = false;
      let buf = `[${forcesReplacement(diff.replace, opts)}\n`;
      for (const el of elements) {
        if (el.action === "NoOp" && !renderNext && !opts.showUnchangedChildren) {
          unchangedEls.push(el);
          continue;
        }
        renderNext = false;
        let o = elementOpts;
        if (displayContext) {
          if (unchangedEls.length > 1) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", o)}${unchanged("element", unchangedEls.length - 1, o)}\n`;
          if (unchangedEls.length > 0) {
            const last = unchangedEls[unchangedEls.length - 1] as Diff;
            buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(last.action, unchangedOpts)}${renderDiff(last, indent + 1, unchangedOpts)},\n`;
          }
          unchangedEls = [];
          if (el.action === "NoOp") o = unchangedOpts;
          else renderNext = true;
        }
        for (const w of warnings(el, indent + 1, o)) buf += `${formatIndent(indent + 1)}${w}\n`;
        buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(el.action, o)}${renderDiff(el, indent + 1, o)},\n`;
      }
      if (unchangedEls.length > 0) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("element", unchangedEls.length, opts)}\n`;
      buf += `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}]${nullSuffix(diff.action, opts)}`;
      return buf;
    },
  };
}

export function list(elements: Diff[]): Renderer {
  return listLike(elements, true);
}

export function nestedList(elements: Diff[]): Renderer {
  return listLike(elements, false);
}

function setLike(elements: Diff[], overrideForces: boolean): Renderer {
  return {
    kind: "set",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      const self = diff.replace && !overrideForces;
      const children = diff.replace && overrideForces;
      if (elements.length === 0) return `[]${nullSuffix(diff.action, opts)}${forcesReplacement(self, opts)}`;
      const elementOpts = cloneOpts(opts);
      elementOpts.overrideNullSuffix = true;
      elementOpts.overrideForcesReplacement = children;
      let unchangedCount = 0;
      let buf = `[${forcesReplacement(self, opts)}\n`;
      for (const el of elements) {
        if (el.action === "NoOp" && !opts.showUnchangedChildren) {
          unchangedCount++;
          continue;
        }
        for (const w of warnings(el, indent + 1, opts)) buf += `${formatIndent(indent + 1)}${w}\n`;
        buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(el.action, elementOpts)}${renderDiff(el, indent + 1, elementOpts)},\n`;
      }
      if (unchangedCount > 0) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("element", unchangedCount, opts)}\n`;
      buf += `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}]${nullSuffix(diff.action, opts)}`;
      return buf;
    },
  };
}

export function set(elements: Diff[]): Renderer {
  return setLike(elements, false);
}

export function nestedSet(elements: Diff[]): Renderer {
  return setLike(elements, true);
}

// ---------------------------------------------------------------------------------------------
// sensitive.go, sensitive_block.go, unknown.go, type_change.go, write_only.go

function sensitiveWarnings(inner: Diff, before: boolean, after: boolean, indent: number, opts: RenderOpts, what: "attribute value" | "block"): string[] {
  if (before === after || inner.action === "Create" || inner.action === "Delete") return [];
  let w: string;
  if (before) {
    w = opts.colorize.color(`  # [yellow]Warning[reset]: this ${what} will no longer be marked as sensitive\n${formatIndent(indent)}  # after applying this change.`);
  } else {
    w = opts.colorize.color(
      `  # [yellow]Warning[reset]: this ${what} will be marked as sensitive and will not\n${formatIndent(indent)}  # display in UI output after applying this change.`,
    );
  }
  if (what === "attribute value" && inner.action === "NoOp") return [`${w} The value is unchanged.`];
  return [w];
}

export function sensitive(inner: Diff, beforeSensitive: boolean, afterSensitive: boolean): Renderer {
  return {
    kind: "sensitive",
    renderHuman(diff, indent, opts) {
      if (opts.showSensitive) return renderDiff(inner, indent, opts);
      return `(sensitive value)${nullSuffix(diff.action, opts)}${forcesReplacement(diff.replace, opts)}`;
    },
    warningsHuman(_diff, indent, opts) {
      return sensitiveWarnings(inner, beforeSensitive, afterSensitive, indent, opts, "attribute value");
    },
  };
}

export function sensitiveBlock(inner: Diff, beforeSensitive: boolean, afterSensitive: boolean): Renderer {
  return {
    kind: "sensitiveBlock",
    renderHuman(diff, indent, opts) {
      const p = `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}`;
      return `{${forcesReplacement(diff.replace, opts)}\n${p}  # At least one attribute in this block is (or was) sensitive,\n${p}  # so its contents will not be displayed.\n${p}}`;
    },
    warningsHuman(_diff, indent, opts) {
      return sensitiveWarnings(inner, beforeSensitive, afterSensitive, indent, opts, "block");
    },
  };
}

export function unknown(before: Diff | undefined): Renderer {
  return {
    kind: "unknown",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      if (diff.action === "Create" || before === undefined) return `(known after apply)${forcesReplacement(diff.replace, opts)}`;
      const o = { ...opts, overrideNullSuffix: true };
      return `${renderDiff(before, indent, o)} -> (known after apply)${forcesReplacement(diff.replace, opts)}`;
    },
  };
}

export function typeChange(before: Diff, after: Diff): Renderer {
  return {
    kind: "typeChange",
    warningsHuman: noWarnings,
    renderHuman(_diff, indent, opts) {
      const o = { ...opts, overrideNullSuffix: true };
      return `${renderDiff(before, indent, o)} ${o.colorize.color("[yellow]->[reset]")} ${renderDiff(after, indent, o)}`;
    },
  };
}

export function writeOnly(): Renderer {
  return {
    kind: "writeOnly",
    warningsHuman: noWarnings,
    renderHuman(diff, _indent, opts) {
      return `(write-only attribute)${forcesReplacement(diff.replace, opts)}${nullSuffix(diff.action, opts)}`;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// block.go and blocks.go

export interface Blocks {
  single: Map<string, Diff>;
  list: Map<string, Diff[]>;
  set: Map<string, Diff[]>;
  map: Map<string, Map<string, Diff>>;
  replace: Map<string, boolean>;
  beforeSensitive: Map<string, boolean>;
  afterSensitive: Map<string, boolean>;
}

export function newBlocks(): Blocks {
  return { single: new Map(), list: new Map(), set: new Map(), map: new Map(), replace: new Map(), beforeSensitive: new Map(), afterSensitive: new Map() };
}

function allBlockKeys(b: Blocks): string[] {
  return [...b.single.keys(), ...b.list.keys(), ...b.set.keys(), ...b.map.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
}

export function block(attributes: Map<string, Diff>, blocks: Blocks): Renderer {
  return {
    kind: "block",
    warningsHuman: noWarnings,
    renderHuman(diff, indent, opts) {
      const blockKeys = allBlockKeys(blocks);
      if (attributes.size === 0 && blockKeys.length === 0) return `{}${forcesReplacement(diff.replace, opts)}`;
      let unchangedAttrs = 0;
      let unchangedBlocks = 0;
      let maxLen = 0;
      const escaped = new Map<string, string>();
      for (const k of attributes.keys()) {
        const e = ensureValidAttributeName(k);
        escaped.set(k, e);
        maxLen = Math.max(maxLen, byteLen(e));
      }
      const importantOpts = cloneOpts(opts);
      importantOpts.showUnchangedChildren = true;
      const attributeOpts = cloneOpts(opts);
      let buf = `{${forcesReplacement(diff.replace, opts)}\n`;
      for (const key of sortedKeys(attributes)) {
        const attr = attributes.get(key) as Diff;
        if (importantAttributes.has(key)) {
          for (const w of warnings(attr, indent + 1, importantOpts)) buf += `${formatIndent(indent + 1)}${w}\n`;
          // OpenTofu prints the unescaped key here.
          buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(attr.action, importantOpts)}${padRight(key, maxLen)} = ${renderDiff(attr, indent + 1, importantOpts)}\n`;
          continue;
        }
        if (attr.action === "NoOp" && !opts.showUnchangedChildren) {
          unchangedAttrs++;
          continue;
        }
        for (const w of warnings(attr, indent + 1, opts)) buf += `${formatIndent(indent + 1)}${w}\n`;
        buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(attr.action, attributeOpts)}${padRight(escaped.get(key) as string, maxLen)} = ${renderDiff(attr, indent + 1, attributeOpts)}\n`;
      }
      if (unchangedAttrs > 0) buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("attribute", unchangedAttrs, opts)}\n`;

      for (const key of blockKeys) {
        let foundChanged = false;
        const renderBlock = (d0: Diff, mapKey: string, o: RenderOpts): void => {
          let d = d0;
          const bs = blocks.beforeSensitive.get(key) === true;
          const as = blocks.afterSensitive.get(key) === true;
          const creating = d.action === "Create" && as;
          const deleting = d.action === "Delete" && bs;
          const modifying = (d.action === "Update" || d.action === "NoOp") && (as || bs);
          if (creating || deleting || modifying) {
            let action = d.action;
            if (d.action === "NoOp" && bs !== as) action = "Update";
            d = newDiff(sensitiveBlock(d, bs, as), action, d.replace);
          }
          if (d.action === "NoOp" && !o.showUnchangedChildren) {
            unchangedBlocks++;
            return;
          }
          if (!foundChanged && attributes.size > 0) {
            buf += "\n";
            foundChanged = true;
          }
          const blockOpts = cloneOpts(o);
          blockOpts.overrideForcesReplacement = blocks.replace.get(key) === true;
          for (const w of warnings(d, indent + 1, blockOpts)) buf += `${formatIndent(indent + 1)}${w}\n`;
          buf += `${formatIndent(indent + 1)}${writeDiffActionSymbol(d.action, blockOpts)}${ensureValidAttributeName(key)}${mapKey} ${renderDiff(d, indent + 1, blockOpts)}\n`;
        };
        if (blocks.single.has(key)) renderBlock(blocks.single.get(key) as Diff, "", opts);
        else if (blocks.map.has(key)) {
          const m = blocks.map.get(key) as Map<string, Diff>;
          for (const k of sortedKeys(m)) renderBlock(m.get(k) as Diff, ` ${quote(k)}`, opts);
        } else if (blocks.set.has(key)) {
          const setOpts = cloneOpts(opts);
          setOpts.overrideForcesReplacement = diff.replace;
          for (const b of blocks.set.get(key) as Diff[]) renderBlock(b, "", setOpts);
        } else if (blocks.list.has(key)) {
          for (const b of blocks.list.get(key) as Diff[]) renderBlock(b, "", opts);
        }
      }
      if (unchangedBlocks > 0) buf += `\n${formatIndent(indent + 1)}${writeDiffActionSymbol("NoOp", opts)}${unchanged("block", unchangedBlocks, opts)}\n`;
      buf += `${formatIndent(indent)}${writeDiffActionSymbol("NoOp", opts)}}`;
      return buf;
    },
  };
}
