// Built-in functions: filesystem (abspath, basename, dirname, pathexpand, file, fileexists,
// fileset, filebase64), as OpenTofu's lang/funcs/filesystem.go defines them. Files are read
// through the injected `ctx.fs`; relative paths resolve against `ctx.baseDir` (the module's
// directory), except `abspath`, which like Go's filepath.Abs uses the working directory.
// Paths follow Go's path/filepath on Unix (./filepath.ts). A sensitive path is never shown in
// an error ("(sensitive value)"), and the path's marks carry over to the result.
import {
  BoolType,
  False,
  Func,
  SENSITIVE,
  StringType,
  True,
  argError,
  asString,
  callError,
  goQuote,
  refineNonNull,
  setOf,
  setVal,
  setValEmpty,
  staticReturnType,
  stringVal,
  unmark,
  withMarks,
  type FunctionResult,
  type Marks,
  type Value,
} from "../../values/index.js";
import type { FunctionContext, FunctionFileSystem } from "./context.js";
import { base, clean, dir, isAbs, join, rel } from "./filepath.js";
import { BadPatternError, filepathGlob } from "./glob.js";

/** OpenTofu's redactIfSensitive for a path: Go-quoted, or "(sensitive value)". */
function redact(path: string, ...marks: Marks[]): string {
  return marks.some((m) => m.has(SENSITIVE)) ? "(sensitive value)" : goQuote(path);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

type Expanded = { ok: true; path: string } | { ok: false; error: string };

/** go-homedir's Expand: a leading "~" (alone or before a separator) becomes the home directory. */
export function expandHome(fs: FunctionFileSystem, path: string): Expanded {
  if (path === "" || path[0] !== "~") return { ok: true, path };
  if (path.length > 1 && path[1] !== "/" && path[1] !== "\\") return { ok: false, error: "cannot expand user-specific home dir" };
  const home = fs.home();
  if (home === undefined || home === "") return { ok: false, error: "blank output when reading home directory" };
  return { ok: true, path: join(home, path.slice(1)) };
}

/** The path a file function opens: home-expanded, joined to the module directory, cleaned. */
function resolvePath(ctx: FunctionContext, path: string): Expanded {
  const e = expandHome(ctx.fs, path);
  if (!e.ok) return { ok: false, error: `failed to expand ~: ${e.error}` };
  return { ok: true, path: clean(isAbs(e.path) ? e.path : join(ctx.baseDir, e.path)) };
}

/**
 * Whether a parent of `path` is a regular file: the operating system then fails with ENOTDIR
 * rather than "does not exist", and OpenTofu reports that differently.
 */
function underFile(fs: FunctionFileSystem, path: string): boolean {
  for (let d = dir(path); ; d = dir(d)) {
    if (fs.isFile(d)) return true;
    if (d === "/" || d === "." || dir(d) === d) return false;
  }
}

type ReadResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

function readFileBytes(ctx: FunctionContext, path: string, marks: Marks): ReadResult {
  const r = resolvePath(ctx, path);
  if (!r.ok) return r;
  // Go opens a directory successfully and then fails to read it.
  if (ctx.fs.isDirectory(r.path)) return { ok: false, error: `failed to read file: read ${r.path}: is a directory` };
  if (underFile(ctx.fs, r.path)) return { ok: false, error: `open ${r.path}: not a directory` };
  let bytes: Uint8Array | undefined;
  try {
    bytes = ctx.fs.readFile(r.path);
  } catch (e) {
    return { ok: false, error: errorMessage(e) };
  }
  if (bytes === undefined) {
    return {
      ok: false,
      error: `no file exists at ${redact(path, marks)}; this function works only with files that are distributed as part of the configuration source code, so if this file will be created by a resource in this configuration you must instead obtain this result from an attribute of that resource`,
    };
  }
  return { ok: true, bytes };
}

// ignoreBOM keeps a leading byte order mark in the text, as Go does.
const utf8Strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

function makeFileFunc(ctx: FunctionContext, encBase64: boolean): Func {
  return new Func({
    params: [{ name: "path", type: StringType, allowMarked: true }],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => {
      const [pathArg, pathMarks] = unmark(args[0] as Value);
      const path = asString(pathArg);
      const r = readFileBytes(ctx, path, pathMarks);
      if (!r.ok) return argError(0, r.error);
      if (encBase64) return ok(withMarks(stringVal(base64(r.bytes)), pathMarks));
      let text: string;
      try {
        text = utf8Strict.decode(r.bytes);
      } catch {
        return callError(
          `contents of ${redact(path, pathMarks)} are not valid UTF-8; use the filebase64 function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, filesha256) to obtain file hashing results instead`,
        );
      }
      return ok(withMarks(stringVal(text), pathMarks));
    },
  });
}

function ok(value: Value): FunctionResult<Value> {
  return { ok: true, value };
}

function makeFileExistsFunc(ctx: FunctionContext): Func {
  return new Func({
    params: [{ name: "path", type: StringType, allowMarked: true }],
    type: staticReturnType(BoolType),
    refineResult: refineNonNull,
    impl: (args) => {
      const [pathArg, pathMarks] = unmark(args[0] as Value);
      const r = resolvePath(ctx, asString(pathArg));
      if (!r.ok) return callError(r.error);
      if (ctx.fs.isFile(r.path)) return ok(withMarks(True, pathMarks));
      if (underFile(ctx.fs, r.path)) return callError(`failed to stat ${redact(r.path, pathMarks)}`);
      // OpenTofu reports this against argument index 1, which does not exist (a quirk kept
      // for identical messages: HCL then reports it as an error of the call as a whole).
      if (ctx.fs.isDirectory(r.path)) return argError(1, `${redact(r.path, pathMarks)} is a directory, not a file`);
      return ok(withMarks(False, pathMarks));
    },
  });
}

function makeFileSetFunc(ctx: FunctionContext): Func {
  return new Func({
    params: [
      { name: "path", type: StringType, allowMarked: true },
      { name: "pattern", type: StringType, allowMarked: true },
    ],
    type: staticReturnType(setOf(StringType)),
    refineResult: refineNonNull,
    impl: (args) => {
      const [pathArg, pathMarks] = unmark(args[0] as Value);
      const [patternArg, patternMarks] = unmark(args[1] as Value);
      let path = asString(pathArg);
      if (!isAbs(path)) path = join(ctx.baseDir, path);
      const pattern = join(path, asString(patternArg));
      let found: string[];
      try {
        found = filepathGlob(ctx.fs, pattern);
      } catch (e) {
        if (e instanceof BadPatternError) return callError(`failed to glob pattern ${redact(pattern, pathMarks, patternMarks)}: ${e.message}`);
        throw e;
      }
      const out: Value[] = [];
      for (const m of found) {
        if (!ctx.fs.isFile(m)) continue; // only regular files
        const r = rel(path, m);
        if (!r.ok) return callError(`failed to trim path of match ${redact(m, pathMarks, patternMarks)}: ${r.error}`);
        out.push(stringVal(r.path));
      }
      const set = out.length === 0 ? setValEmpty(StringType) : setVal(out);
      return ok(withMarks(set, pathMarks, patternMarks));
    },
  });
}

function pathFunc(impl: (path: string) => { ok: true; value: string } | { ok: false; error: string }): Func {
  return new Func({
    params: [{ name: "path", type: StringType }],
    type: staticReturnType(StringType),
    refineResult: refineNonNull,
    impl: (args) => {
      const r = impl(asString(args[0] as Value));
      return r.ok ? ok(stringVal(r.value)) : callError(r.error);
    },
  });
}

export function filesystemFunctions(ctx: FunctionContext): Record<string, Func> {
  return {
    abspath: pathFunc((p) => ({ ok: true, value: ctx.fs.abs(p) })),
    basename: pathFunc((p) => ({ ok: true, value: base(p) })),
    dirname: pathFunc((p) => ({ ok: true, value: dir(p) })),
    pathexpand: pathFunc((p) => {
      const e = expandHome(ctx.fs, p);
      return e.ok ? { ok: true, value: e.path } : e;
    }),
    file: makeFileFunc(ctx, false),
    filebase64: makeFileFunc(ctx, true),
    fileexists: makeFileExistsFunc(ctx),
    fileset: makeFileSetFunc(ctx),
  };
}
