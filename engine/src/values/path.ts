// Paths into values and errors that carry one (cty.Path / cty.PathError), printed the way
// OpenTofu's tfdiags.FormatError prints them: `[1].name: a number is required`.

import { goQuote } from "./gostrings.js";
import type { Path, PathStep, Value } from "./value.js";

export type { Path, PathStep };

export interface PathError {
  readonly path: Path;
  readonly message: string;
}

export function pathError(path: Path, message: string): PathError {
  return { path: [...path], message };
}

/** The answer of a decoder that fails with a located error instead of throwing. */
export type PathResult<T> = { ok: true; value: T } | { ok: false; error: PathError };

/** Thrown deep inside a decoder and caught at its public boundary by `catchPathFailure`. */
class PathFailure extends Error {
  constructor(readonly pathError: PathError) {
    super(pathError.message);
  }
}

export function failAt(path: Path, message: string): never {
  throw new PathFailure(pathError(path, message));
}

/** The error of a decoder given input nested deeper than it can follow. */
export const NESTED_TOO_DEEPLY = "value is nested too deeply to decode";

/**
 * Runs `f`, turning a `failAt` inside it into a failed result; anything else still throws. The
 * decoders recurse once per level of nesting, and their input comes from outside (files, state,
 * providers), so running out of stack on absurdly deep input is a failed result too, not a crash.
 * V8 reports that as a RangeError, or as a SyntaxError when it strikes while compiling a regex.
 */
export function catchPathFailure<T>(f: () => T): PathResult<T> {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (e instanceof PathFailure) return { ok: false, error: e.pathError };
    if ((e instanceof RangeError || e instanceof SyntaxError) && /call stack|stack overflow/i.test(e.message)) return { ok: false, error: pathError([], NESTED_TOO_DEEPLY) };
    throw e;
  }
}

/**
 * Decoders and encoders first run without keeping the path to each value (building it costs more
 * than the work itself on large values: every state read and every provider call); only when that
 * run fails is it repeated with the path, for the error to say where. `f` gets the path to start
 * from, or undefined when paths are not kept.
 */
export function trackedOnFailure<T>(f: (path: Path | undefined) => T): PathResult<T> {
  try {
    return catchPathFailure(() => f(undefined));
  } catch (e) {
    if (!(e instanceof Untracked)) throw e;
  }
  return catchPathFailure(() => f([]));
}

class Untracked extends Error {}
const UNTRACKED = new Untracked("path not tracked");

/** `failAt` where the path may not be kept: then the run is repeated with it (trackedOnFailure). */
export function failAtTracked(path: Path | undefined, message: string): never {
  if (path === undefined) throw UNTRACKED;
  return failAt(path, message);
}

/** The path one step further in, when paths are kept. */
export function stepInto(path: Path | undefined, step: () => PathStep): Path | undefined {
  return path === undefined ? undefined : [...path, step()];
}

export function attrStep(name: string): PathStep {
  return { kind: "attr", name };
}

export function indexStep(key: Value): PathStep {
  return { kind: "index", key };
}

/** tfdiags.FormatCtyPath: `.a[0]["k"]`. */
export function formatPath(path: Path): string {
  let out = "";
  for (const step of path) {
    if (step.kind === "attr") {
      out += `.${step.name}`;
      continue;
    }
    const k = step.key;
    out += "[";
    if (k.kind === "null") out += "null";
    else if (k.kind === "unknown") out += "(not yet known)";
    else if (k.kind === "number") out += k.value.text("g");
    else if (k.kind === "string") out += goQuote(k.value);
    else out += "...";
    out += "]";
  }
  return out;
}

/** tfdiags.FormatError: the path (when there is one), a colon, then the message. */
export function formatPathError(err: PathError): string {
  if (err.path.length === 0) return err.message;
  return `${formatPath(err.path)}: ${err.message}`;
}
