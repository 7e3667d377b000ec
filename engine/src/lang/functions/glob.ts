// Glob matching with the semantics of github.com/bmatcuk/doublestar/v4 (FilepathGlob with its
// default options), which OpenTofu's `fileset` uses: `*` and `?` within one path segment (they
// do match names starting with "."), `**` as a whole segment for zero or more directories,
// `[...]`/`[!...]`/`[^...]` classes with ranges, `{a,b}` alternatives (which may contain "/"),
// and `\` escapes. File system errors while walking are ignored, as doublestar does by default;
// the only error is a malformed pattern.
import type { FunctionFileSystem } from "./context.js";
import { clean, join } from "./filepath.js";

export class BadPatternError extends Error {
  constructor() {
    super("syntax error in pattern");
  }
}

/** doublestar's ValidatePattern with "/" as the separator. */
export function validatePattern(s: string): boolean {
  let altDepth = 0;
  const l = s.length;
  outer: for (let i = 0; i < l; i++) {
    switch (s[i]) {
      case "\\":
        if (++i >= l) return false;
        continue;
      case "[":
        if (++i >= l) return false;
        if (s[i] === "^" || s[i] === "!") i++;
        if (i >= l || s[i] === "]") return false;
        for (; i < l; i++) {
          if (s[i] === "\\") i++;
          else if (s[i] === "]") continue outer;
        }
        return false;
      case "{":
        altDepth++;
        continue;
      case "}":
        if (altDepth === 0) return false;
        altDepth--;
        continue;
      default:
        continue;
    }
  }
  return altDepth === 0;
}

function unescapeMeta(p: string): string {
  return p.replace(/\\([*?[\]{}])/g, "$1");
}

function indexMeta(s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "*" || c === "?" || c === "[" || c === "{") return i;
    if (c === "\\") i++;
  }
  return -1;
}

function lastIndexSlashOrAlt(s: string): number {
  for (let i = s.length - 1; i >= 0; i--) {
    if ((s[i] === "/" || s[i] === "}") && (i === 0 || s[i - 1] !== "\\")) return i;
  }
  return -1;
}

function lastIndexSlash(s: string): number {
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === "/" && (i === 0 || s[i - 1] !== "\\")) return i;
  }
  return -1;
}

/** With a `}` just after `s`, the index of its matching `{`. */
function indexMatchedOpeningAlt(s: string): number {
  let alts = 1;
  for (let i = s.length - 1; i >= 0; i--) {
    if (s[i] === "}" && (i === 0 || s[i - 1] !== "\\")) alts++;
    else if (s[i] === "{" && (i === 0 || s[i - 1] !== "\\")) {
      if (--alts === 0) return i;
    }
  }
  return -1;
}

/** With a `{` just before `s`, the index of its matching `}`. */
function indexMatchedClosingAlt(s: readonly string[]): number {
  let alts = 1;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "{") alts++;
    else if (s[i] === "}" && --alts === 0) return i;
  }
  return -1;
}

/** The next top-level `,` of an alternative list (skipping nested `{}` and classes). */
function indexNextAlt(s: readonly string[]): number {
  let alts = 1;
  const l = s.length;
  for (let i = 0; i < l; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === "[") {
      for (i++; i < l; i++) {
        if (s[i] === "\\") i++;
        else if (s[i] === "]") break;
      }
    } else if (s[i] === "{") alts++;
    else if (s[i] === "}") alts--;
    else if (s[i] === "," && alts === 1) return i;
  }
  return -1;
}

function indexUnescaped(s: readonly string[], from: number, c: string): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === c) return i - from;
  }
  return -1;
}

const MAX_RUNE = 0x10ffff;

/** doublestar's Match for one path (pattern and name split on "/"). */
export function match(pattern: string, name: string): boolean {
  return doMatch(Array.from(pattern), Array.from(name), -1, -1, -1, -1, 0, 0);
}

function doMatch(
  pattern: readonly string[],
  name: readonly string[],
  dsPatBack: number,
  dsNameBack: number,
  starPatBack: number,
  starNameBack: number,
  patIdx: number,
  nameIdx: number,
): boolean {
  const patLen = pattern.length;
  const nameLen = name.length;
  let startOfSegment = true;
  matchLoop: while (nameIdx < nameLen) {
    stepFailed: {
      if (patIdx >= patLen) break stepFailed;
      const pc = pattern[patIdx] as string;
      switch (pc) {
        case "*": {
          patIdx++;
          if (patIdx < patLen && pattern[patIdx] === "*") {
            patIdx++;
            if (startOfSegment) {
              if (patIdx >= patLen) return true; // pattern ends in `/**`
              if (pattern[patIdx] === "/") {
                patIdx++;
                dsPatBack = patIdx;
                dsNameBack = nameIdx;
                starPatBack = -1;
                starNameBack = -1;
                continue matchLoop;
              }
            }
          }
          startOfSegment = false;
          starPatBack = patIdx;
          starNameBack = nameIdx;
          continue matchLoop;
        }
        case "?": {
          startOfSegment = false;
          if (name[nameIdx] === "/") break stepFailed;
          patIdx++;
          nameIdx++;
          continue matchLoop;
        }
        case "[": {
          startOfSegment = false;
          if (++patIdx >= patLen) throw new BadPatternError();
          const nameRune = (name[nameIdx] as string).codePointAt(0) as number;
          let matched = false;
          const negate = pattern[patIdx] === "!" || pattern[patIdx] === "^";
          if (negate) patIdx++;
          if (patIdx >= patLen || pattern[patIdx] === "]") throw new BadPatternError();
          let last = MAX_RUNE;
          while (patIdx < patLen && pattern[patIdx] !== "]") {
            let patRune = (pattern[patIdx] as string).codePointAt(0) as number;
            patIdx++;
            if (last < MAX_RUNE && patRune === 0x2d && patIdx < patLen && pattern[patIdx] !== "]") {
              if (pattern[patIdx] === "\\") patIdx++;
              patRune = (pattern[patIdx] ?? "\u0000").codePointAt(0) as number;
              patIdx++;
              if (last <= nameRune && nameRune <= patRune) {
                matched = true;
                break;
              }
              last = MAX_RUNE;
              continue;
            }
            if (patRune === 0x5c) {
              patRune = (pattern[patIdx] ?? "\u0000").codePointAt(0) as number;
              patIdx++;
            }
            if (patRune === nameRune) {
              matched = true;
              break;
            }
            last = patRune;
          }
          if (matched === negate) {
            if (patIdx >= patLen) throw new BadPatternError();
            break stepFailed;
          }
          const closing = indexUnescaped(pattern, patIdx, "]");
          if (closing === -1) throw new BadPatternError();
          patIdx += closing + 1;
          nameIdx++;
          continue matchLoop;
        }
        case "{": {
          startOfSegment = false;
          const beforeIdx = patIdx;
          patIdx++;
          const rel = indexMatchedClosingAlt(pattern.slice(patIdx));
          if (rel === -1) throw new BadPatternError();
          const closingIdx = rel + patIdx;
          const rest = pattern.slice(closingIdx + 1);
          const head = pattern.slice(0, beforeIdx);
          for (;;) {
            const comma = indexNextAlt(pattern.slice(patIdx, closingIdx));
            if (comma === -1) break;
            const commaIdx = comma + patIdx;
            const alt = [...head, ...pattern.slice(patIdx, commaIdx), ...rest];
            if (doMatch(alt, name, dsPatBack, dsNameBack, starPatBack, starNameBack, beforeIdx, nameIdx)) return true;
            patIdx = commaIdx + 1;
          }
          const lastAlt = [...head, ...pattern.slice(patIdx, closingIdx), ...rest];
          return doMatch(lastAlt, name, dsPatBack, dsNameBack, starPatBack, starNameBack, beforeIdx, nameIdx);
        }
        default: {
          if (pc === "\\") {
            if (++patIdx >= patLen) throw new BadPatternError();
          }
          const patRune = pattern[patIdx] as string;
          if (patRune !== name[nameIdx]) {
            if (patIdx > 0 && pattern[patIdx - 1] === "\\") patIdx--;
            break stepFailed;
          }
          patIdx++;
          nameIdx++;
          startOfSegment = patRune === "/";
          continue matchLoop;
        }
      }
    }
    // The current step failed: backtrack to the last `*`, then to the last `**`.
    if (starPatBack >= 0 && name[starNameBack] !== "/") {
      starNameBack++;
      patIdx = starPatBack;
      nameIdx = starNameBack;
      startOfSegment = false;
      continue;
    }
    if (dsPatBack >= 0) {
      nameIdx = dsNameBack;
      while (nameIdx < nameLen) {
        const r = name[nameIdx];
        nameIdx++;
        if (r === "/") {
          dsNameBack = nameIdx;
          patIdx = dsPatBack;
          startOfSegment = true;
          continue matchLoop;
        }
      }
    }
    return false;
  }
  if (nameIdx < nameLen) return false;
  return isZeroLengthPattern(pattern.slice(patIdx));
}

function isZeroLengthPattern(p: readonly string[]): boolean {
  const s = p.join("");
  if (s === "" || s === "*" || s === "**" || s === "/**" || s === "**/" || s === "/**/") return true;
  if (p[0] === "{") {
    const rel = indexMatchedClosingAlt(p.slice(1));
    if (rel === -1) throw new BadPatternError();
    const closingIdx = rel + 1;
    const rest = p.slice(closingIdx + 1);
    let patIdx = 1;
    for (;;) {
      const comma = indexNextAlt(p.slice(patIdx, closingIdx));
      if (comma === -1) break;
      const commaIdx = comma + patIdx;
      if (isZeroLengthPattern([...p.slice(patIdx, commaIdx), ...rest])) return true;
      patIdx = commaIdx + 1;
    }
    return isZeroLengthPattern([...p.slice(patIdx, closingIdx), ...rest]);
  }
  return false;
}

/** doublestar's SplitPattern: the meta-free leading directory and the rest. */
function splitPattern(p: string): [string, string] {
  let splitIdx = -1;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === "\\") i++;
    else if (c === "/") splitIdx = i;
    else if (c === "*" || c === "?" || c === "[" || c === "{") break;
  }
  if (splitIdx === 0) return ["/", p.slice(1)];
  if (splitIdx > 0) return [unescapeMeta(p.slice(0, splitIdx)), p.slice(splitIdx + 1)];
  return [".", p];
}

/** A directory tree rooted at `base`, addressed with "/"-separated relative names as io/fs does. */
class DirView {
  constructor(
    private readonly fs: FunctionFileSystem,
    private readonly base: string,
  ) {}

  private full(name: string): string {
    return name === "." ? this.base : join(this.base, name);
  }

  exists(name: string): boolean {
    const p = this.full(name);
    return this.fs.isFile(p) || this.fs.isDirectory(p);
  }

  isDir(name: string): boolean {
    return this.fs.isDirectory(this.full(name));
  }

  /** Sorted entry names, or undefined when `name` cannot be read as a directory. */
  readDir(name: string): string[] | undefined {
    const p = this.full(name);
    if (!this.fs.isDirectory(p)) return undefined;
    try {
      return [...this.fs.readDir(p)].sort(compareBytes);
    } catch {
      return undefined; // doublestar ignores I/O errors by default
    }
  }
}

function compareBytes(a: string, b: string): number {
  const ea = new TextEncoder().encode(a);
  const eb = new TextEncoder().encode(b);
  const n = Math.min(ea.length, eb.length);
  for (let i = 0; i < n; i++) {
    if (ea[i] !== eb[i]) return (ea[i] as number) - (eb[i] as number);
  }
  return ea.length - eb.length;
}

function pathJoin(d: string, name: string): string {
  return d === "." ? name : `${d}/${name}`;
}

function doGlob(view: DirView, pattern: string, matches: string[], firstSegment: boolean): string[] {
  const patternStart = indexMeta(pattern);
  if (patternStart === -1) {
    let p = unescapeMeta(pattern);
    if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
    if (view.exists(p)) matches.push(unescapeMeta(pattern));
    return matches;
  }
  let dirName = ".";
  let splitIdx = lastIndexSlashOrAlt(pattern);
  let rest = pattern;
  if (splitIdx !== -1) {
    if (pattern[splitIdx] === "}") {
      const openingIdx = indexMatchedOpeningAlt(pattern.slice(0, splitIdx));
      if (openingIdx === -1) {
        // An unmatched `}` is an ordinary character.
        splitIdx = lastIndexSlash(pattern.slice(0, splitIdx));
        if (splitIdx !== -1) {
          dirName = pattern.slice(0, splitIdx);
          rest = pattern.slice(splitIdx + 1);
        }
      } else {
        return globAlts(view, pattern, openingIdx, splitIdx, matches, firstSegment);
      }
    } else {
      dirName = pattern.slice(0, splitIdx);
      rest = pattern.slice(splitIdx + 1);
    }
  }
  if (splitIdx <= patternStart) return globDir(view, dirName, rest, matches, firstSegment);
  const dirs = doGlob(view, dirName, [], false);
  for (const d of dirs) globDir(view, d, rest, matches, firstSegment);
  return matches;
}

function globAlts(view: DirView, pattern: string, openingIdx: number, closingIdx: number, matches: string[], firstSegment: boolean): string[] {
  let dirs: string[];
  let startIdx = 0;
  const afterIdx = closingIdx + 1;
  const splitIdx = lastIndexSlashOrAlt(pattern.slice(0, openingIdx));
  if (splitIdx === -1 || pattern[splitIdx] === "}") {
    dirs = [""];
  } else {
    dirs = doGlob(view, pattern.slice(0, splitIdx), [], false);
    startIdx = splitIdx + 1;
  }
  const inner = Array.from(pattern.slice(openingIdx + 1, closingIdx));
  for (const d of dirs) {
    let from = 0;
    for (;;) {
      const comma = indexNextAlt(inner.slice(from));
      const to = comma === -1 ? inner.length : from + comma;
      const prefix = d !== "" && d !== "." ? `${d}/` : "";
      const alt = prefix + pattern.slice(startIdx, openingIdx) + inner.slice(from, to).join("") + pattern.slice(afterIdx);
      doGlob(view, alt, matches, firstSegment);
      if (comma === -1) break;
      from = to + 1;
    }
  }
  return matches;
}

function globDir(view: DirView, dirName: string, pattern: string, matches: string[], canMatchFiles: boolean): string[] {
  if (pattern === "") {
    if (view.isDir(dirName)) matches.push(dirName);
    return matches;
  }
  if (pattern === "**") return globDoubleStar(view, dirName, matches, canMatchFiles);
  const entries = view.readDir(dirName);
  if (!entries) return matches;
  for (const name of entries) {
    if (!match(pattern, name)) continue;
    if (canMatchFiles || view.isDir(pathJoin(dirName, name))) matches.push(pathJoin(dirName, name));
  }
  return matches;
}

function globDoubleStar(view: DirView, dirName: string, matches: string[], canMatchFiles: boolean): string[] {
  const entries = view.readDir(dirName);
  if (!entries) return matches;
  matches.push(dirName); // `**` matches this directory too
  for (const name of entries) {
    const p = pathJoin(dirName, name);
    if (view.isDir(p)) globDoubleStar(view, p, matches, canMatchFiles);
    else if (canMatchFiles) matches.push(p);
  }
  return matches;
}

/**
 * doublestar's FilepathGlob: every existing path matching `pattern` (files and directories, as
 * paths in the form the pattern gave: relative patterns give relative paths). Throws
 * BadPatternError for a malformed pattern.
 */
export function filepathGlob(fs: FunctionFileSystem, pattern: string): string[] {
  if (pattern === "") return [];
  const cleaned = clean(pattern);
  const [baseDir, rest] = splitPattern(cleaned);
  if (rest === "" || rest === "." || rest === "..") {
    if (!validatePattern(cleaned)) throw new BadPatternError();
    const p = unescapeMeta(cleaned);
    return fs.isFile(p) || fs.isDirectory(p) ? [p] : [];
  }
  if (!validatePattern(rest)) throw new BadPatternError();
  const view = new DirView(fs, baseDir);
  return doGlob(view, rest, [], true).map((m) => join(baseDir, m));
}
