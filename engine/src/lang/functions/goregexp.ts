// Go's regexp package on top of re2js (a port of the same RE2 engine): the error parts Go reports
// (code and offending expression), SubexpNames, FindAllStringSubmatchIndex's rules for empty
// matches, and ReplaceAllString with Go's `$name` / `${name}` template expansion. Offsets are
// UTF-16 indexes into the JavaScript string; only substrings ever leave this module.
import { RE2JS, RE2JSSyntaxException } from "re2js";
import { isDigitRune, isLetterRune } from "./unicode.js";

export type CompileResult = { ok: true; re: GoRegexp } | { ok: false; code: string; expr: string };

/** regexp.Compile: Perl syntax with Go's flags (re2js's defaults are the same). */
export function compileRegexp(pattern: string): CompileResult {
  let re: RE2JS;
  const { source, names } = renameDuplicateGroups(unicodeClassAliases(pattern));
  try {
    re = RE2JS.compile(source);
  } catch (e) {
    if (e instanceof RE2JSSyntaxException) return { ok: false, code: e.error, expr: e.input ?? "" };
    const msg = e instanceof Error ? e.message : String(e);
    return { ok: false, code: msg, expr: pattern };
  }
  return { ok: true, re: new GoRegexp(re, names) };
}

/**
 * Unicode's long names of the general categories (`Letter` for `L`), as Go 1.25's
 * unicode.CategoryAliases has them; keys in canonical form (see canonicalClassName).
 */
const CATEGORY_ALIASES: Readonly<Record<string, string>> = {
  Casedletter: "LC",
  Closepunctuation: "Pe",
  Connectorpunctuation: "Pc",
  Control: "Cc",
  Cntrl: "Cc",
  Currencysymbol: "Sc",
  Dashpunctuation: "Pd",
  Decimalnumber: "Nd",
  Digit: "Nd",
  Enclosingmark: "Me",
  Finalpunctuation: "Pf",
  Format: "Cf",
  Initialpunctuation: "Pi",
  Letter: "L",
  Letternumber: "Nl",
  Lineseparator: "Zl",
  Lowercaseletter: "Ll",
  Mark: "M",
  Combiningmark: "M",
  Mathsymbol: "Sm",
  Modifierletter: "Lm",
  Modifiersymbol: "Sk",
  Nonspacingmark: "Mn",
  Number: "N",
  Openpunctuation: "Ps",
  Other: "C",
  Otherletter: "Lo",
  Othernumber: "No",
  Otherpunctuation: "Po",
  Othersymbol: "So",
  Paragraphseparator: "Zp",
  Privateuse: "Co",
  Punctuation: "P",
  Punct: "P",
  Separator: "Z",
  Spaceseparator: "Zs",
  Spacingmark: "Mc",
  Surrogate: "Cs",
  Symbol: "S",
  Titlecaseletter: "Lt",
  Unassigned: "Cn",
  Uppercaseletter: "Lu",
};

/** Go 1.25's canonicalName: no underscores, hyphens or spaces; the first letter upper case, the rest lower. */
function canonicalClassName(name: string): string {
  const plain = name.replace(/[-_ ]/g, "");
  return plain.slice(0, 1).toUpperCase() + plain.slice(1).toLowerCase();
}

const acceptedClassNames = new Map<string, boolean>();

function acceptedClassName(name: string): boolean {
  let ok = acceptedClassNames.get(name);
  if (ok === undefined) {
    try {
      RE2JS.compile(`\\p{${name}}`);
      ok = true;
    } catch {
      ok = false;
    }
    acceptedClassNames.set(name, ok);
  }
  return ok;
}

/**
 * Go 1.25 (which OpenTofu 1.11 is built with) looks `\p{…}` names up loosely — case, underscores,
 * hyphens and spaces aside — and knows the long category names (`\p{Letter}`, `\p{Uppercase_Letter}`);
 * re2js takes names only as written. Each name re2js would refuse is rewritten to the one it
 * takes, when there is one; others are left for re2js to report.
 */
function unicodeClassAliases(pattern: string): string {
  if (!/\\[pP]\{/.test(pattern)) return pattern;
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === "Q") {
      const end = pattern.indexOf("\\E", i + 2);
      const stop = end < 0 ? pattern.length : end + 2;
      out += pattern.slice(i, stop);
      i = stop - 1;
      continue;
    }
    const close = pattern.indexOf("}", i);
    if ((next !== "p" && next !== "P") || pattern[i + 2] !== "{" || close < 0) {
      out += pattern.slice(i, i + 2);
      i++;
      continue;
    }
    const written = pattern.slice(i + 3, close);
    const negated = written.startsWith("^") ? "^" : "";
    const name = written.slice(negated.length);
    out += `\\${next}{${negated}${classNameFor(name)}}`;
    i = close;
  }
  return out;
}

function classNameFor(name: string): string {
  if (acceptedClassName(name)) return name;
  const canonical = canonicalClassName(name);
  const target = CATEGORY_ALIASES[canonical] ?? canonical;
  return acceptedClassName(target) ? target : name;
}

/**
 * Go accepts the same group name twice (re2js does not): later duplicates get a fresh name for
 * re2js, and `names` maps each fresh name back to the one written.
 */
function renameDuplicateGroups(pattern: string): { source: string; names: Map<string, string> } {
  const names = new Map<string, string>();
  const seen = new Set<string>();
  const found: Array<{ at: number; len: number; name: string }> = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") {
      if (pattern[i + 1] === "Q") {
        const end = pattern.indexOf("\\E", i + 2);
        i = end < 0 ? pattern.length : end + 1;
      } else i++;
      continue;
    }
    if (inClass) {
      if (c === "[" && pattern[i + 1] === ":") {
        const end = pattern.indexOf(":]", i + 2);
        if (end >= 0) i = end + 1;
      } else if (c === "]") inClass = false;
      continue;
    }
    if (c === "[") {
      inClass = true;
      if (pattern[i + 1] === "^") i++;
      if (pattern[i + 1] === "]") i++;
      continue;
    }
    const m = /^\(\?P?<([A-Za-z0-9_]+)>/.exec(pattern.slice(i, i + 260));
    if (m) {
      const name = m[1] as string;
      if (seen.has(name)) found.push({ at: i + m[0].length - name.length - 1, len: name.length, name });
      seen.add(name);
    }
  }
  if (found.length === 0) return { source: pattern, names };
  let out = pattern;
  let n = 0;
  for (const f of found.reverse()) {
    let fresh: string;
    do fresh = `${f.name}_dup${n++}`;
    while (seen.has(fresh));
    seen.add(fresh);
    names.set(fresh, f.name);
    out = out.slice(0, f.at) + fresh + out.slice(f.at + f.len);
  }
  return { source: out, names };
}

/** Width in UTF-16 units of the code point at `i` (0 at the end), as utf8.DecodeRuneInString's step. */
function runeWidth(s: string, i: number): number {
  if (i >= s.length) return 0;
  const cp = s.codePointAt(i) as number;
  return cp > 0xffff ? 2 : 1;
}

export class GoRegexp {
  /** Names of the groups, index 0 being the whole match (always ""), as Regexp.SubexpNames. */
  readonly subexpNames: readonly string[];

  constructor(
    private readonly re: RE2JS,
    renamed: ReadonlyMap<string, string> = new Map(),
  ) {
    const names: string[] = new Array<string>(re.groupCount() + 1).fill("");
    for (const [name, idx] of Object.entries(re.namedGroups())) names[idx] = renamed.get(name) ?? name;
    this.subexpNames = names;
  }

  get numSubexp(): number {
    return this.subexpNames.length - 1;
  }

  /** The leftmost match at or after `pos` (seeing the whole input for anchors), as start/end pairs per group. */
  private execAt(s: string, pos: number): number[] | undefined {
    const m = this.re.matcher(s);
    if (!m.find(pos)) return undefined;
    const out: number[] = [];
    for (let g = 0; g <= this.numSubexp; g++) out.push(m.start(g), m.end(g));
    return out;
  }

  /** FindStringSubmatchIndex. */
  findSubmatchIndex(s: string): number[] | undefined {
    return this.execAt(s, 0);
  }

  /** FindAllStringSubmatchIndex(s, -1): no empty match right after a previous match. */
  findAllSubmatchIndex(s: string): number[][] {
    const out: number[][] = [];
    let pos = 0;
    let prevMatchEnd = -1;
    while (pos <= s.length) {
      const m = this.execAt(s, pos);
      if (!m) break;
      const [start, end] = m as [number, number];
      let accept = true;
      if (end === pos) {
        if (start === prevMatchEnd) accept = false;
        const w = runeWidth(s, pos);
        pos = w > 0 ? pos + w : s.length + 1;
      } else {
        pos = end;
      }
      prevMatchEnd = end;
      if (accept) out.push(m);
    }
    return out;
  }

  /** ReplaceAllString: `$1`, `${name}`, `$$` in the template; no empty match right after a match. */
  replaceAll(src: string, template: string): string {
    let out = "";
    let lastMatchEnd = 0;
    let searchPos = 0;
    while (searchPos <= src.length) {
      const m = this.execAt(src, searchPos);
      if (!m) break;
      const [start, end] = m as [number, number];
      out += src.slice(lastMatchEnd, start);
      if (end > lastMatchEnd || start === 0) out += this.expand(template, src, m);
      lastMatchEnd = end;
      const w = runeWidth(src, searchPos);
      if (searchPos + w > end) searchPos += w;
      else if (searchPos + 1 > end) searchPos++;
      else searchPos = end;
    }
    return out + src.slice(lastMatchEnd);
  }

  /** Regexp.Expand's template language. */
  private expand(template: string, src: string, match: readonly number[]): string {
    let out = "";
    let t = template;
    for (;;) {
      const at = t.indexOf("$");
      if (at < 0) break;
      out += t.slice(0, at);
      t = t.slice(at + 1);
      if (t.startsWith("$")) {
        out += "$";
        t = t.slice(1);
        continue;
      }
      const ref = extractRef(t);
      if (!ref) {
        out += "$";
        continue;
      }
      t = ref.rest;
      let group = ref.num;
      // By name: the first group of that name that took part in the match.
      if (group < 0) group = this.subexpNames.findIndex((n, i) => i > 0 && n === ref.name && (match[2 * i] as number) >= 0);
      if (group >= 0 && 2 * group + 1 < match.length && (match[2 * group] as number) >= 0) {
        out += src.slice(match[2 * group], match[2 * group + 1]);
      }
    }
    return out + t;
  }
}

/** Go's regexp `extract`: a `name` or `{name}` reference; num is -1 unless it is a plain group number. */
function extractRef(s: string): { name: string; num: number; rest: string } | undefined {
  if (s === "") return undefined;
  let str = s;
  const brace = str.startsWith("{");
  if (brace) str = str.slice(1);
  let i = 0;
  while (i < str.length) {
    const cp = str.codePointAt(i) as number;
    if (!(cp === 0x5f || isLetterRune(cp) || isDigitRune(cp))) break;
    i += cp > 0xffff ? 2 : 1;
  }
  if (i === 0) return undefined;
  const name = str.slice(0, i);
  if (brace) {
    if (str[i] !== "}") return undefined;
    i++;
  }
  let num = 0;
  for (const c of name) {
    if (c < "0" || c > "9" || num >= 1e8) {
      num = -1;
      break;
    }
    num = num * 10 + (c.charCodeAt(0) - 48);
  }
  if (name[0] === "0" && name.length > 1) num = -1;
  return { name, num, rest: str.slice(i) };
}
