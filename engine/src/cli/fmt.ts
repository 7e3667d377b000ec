// `terrace fmt [options] [target...]`: rewrites configuration files in the canonical style, with
// the options, output and exit codes of `tofu fmt` (0 done, 2 errors, 3 `-check` found files to
// change, 1 bad usage). Files that do not parse are reported and left untouched.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, type Dirent } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { encodeFormatted, formatConfig, FORMATTED_EXTENSIONS, isFormattedFile, unifiedDiff } from "../fmt/index.js";
import { errorDiag, renderDiagnostic, type Diagnostic, type RenderSource } from "../hcl/index.js";
import { processMetaArgs } from "./args.js";
import type { Command, CommandIO } from "./io.js";

const HELP = `Usage: terrace [global options] fmt [options] [target...]

  Rewrites all OpenTofu configuration files to a canonical format. All
  configuration files (.tf and .tofu), variables files (.tfvars), and testing
  files (.tftest.hcl and .tofutest.hcl) are updated. JSON files (.tf.json,
  .tfvars.json, or .tftest.json) are not modified.

  By default, fmt scans the current directory for configuration files. If you
  provide a directory for the target argument, then fmt will scan that
  directory instead. If you provide a file, then fmt will process just that
  file. If you provide a single dash ("-"), then fmt will read from standard
  input (STDIN).

  The content must be in the OpenTofu language native syntax; JSON is not
  supported.

Options:

  -list=false    Don't list files whose formatting differs
                 (always disabled if using STDIN)

  -write=false   Don't write to source files
                 (always disabled if using STDIN or -check)

  -diff          Display diffs of formatting changes

  -check         Check if the input is formatted. Exit status will be 0 if all
                 input is properly formatted and non-zero otherwise.

  -no-color      If specified, output won't contain any color.

  -recursive     Also process files in subdirectories. By default, only the
                 given directory (or current directory) is processed.
`;

interface FmtOptions {
  list: boolean;
  write: boolean;
  diff: boolean;
  check: boolean;
  recursive: boolean;
  noColor: boolean;
  help: boolean;
  paths: string[];
}

const BOOL_FLAGS = ["list", "write", "diff", "check", "recursive", "no-color", "help", "h"] as const;
type BoolFlag = (typeof BOOL_FLAGS)[number];

/** Go's strconv.ParseBool, which the flag package uses for `-name=value`. */
function parseBool(v: string): boolean | undefined {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(v)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(v)) return false;
  return undefined;
}

/** Flags as Go's flag package reads them: before the targets, `-x` or `--x`, `-x=value`; `--` ends them. */
function parseArgs(all: readonly string[]): FmtOptions | string {
  // Meta.process takes `-no-color` out wherever it is, after the paths too.
  const { color, rest: args } = processMetaArgs(all);
  const o: FmtOptions = { list: true, write: true, diff: false, check: false, recursive: false, noColor: !color, help: false, paths: [] };
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--") {
      i++;
      break;
    }
    if (a.length < 2 || !a.startsWith("-")) break;
    const body = a.startsWith("--") ? a.slice(2) : a.slice(1);
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(0, eq);
    if (!(BOOL_FLAGS as readonly string[]).includes(name)) return `flag provided but not defined: -${name}`;
    let value = true;
    if (eq >= 0) {
      const v = parseBool(body.slice(eq + 1));
      if (v === undefined) return `invalid boolean value "${body.slice(eq + 1)}" for -${name}: parse error`;
      value = v;
    }
    switch (name as BoolFlag) {
      case "list":
        o.list = value;
        break;
      case "write":
        o.write = value;
        break;
      case "diff":
        o.diff = value;
        break;
      case "check":
        o.check = value;
        break;
      case "recursive":
        o.recursive = value;
        break;
      case "no-color":
        o.noColor = value;
        break;
      case "help":
      case "h":
        o.help = value;
        break;
    }
  }
  o.paths = args.slice(i);
  return o;
}

/** configs.IsIgnoredFile: hidden files and editor backups (`.x`, `x~`, `#x#`). */
function isIgnored(name: string): boolean {
  return name.startsWith(".") || name.endsWith("~") || (name.startsWith("#") && name.endsWith("#"));
}

/** Byte-wise name order, as Go's os.ReadDir sorts. */
function byBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

/** Runs one fmt invocation; collects diagnostics and output as tofu's FmtCommand does. */
class FmtRun {
  readonly diags: Diagnostic[] = [];
  readonly sources = new Map<string, RenderSource>();
  private readonly out: string[] = [];

  constructor(
    private readonly io: CommandIO,
    private readonly o: FmtOptions,
  ) {}

  /** What tofu writes through its UI writer: each chunk as one line of output. */
  output(s: string): void {
    this.out.push(s.endsWith("\n") ? s : `${s}\n`);
  }

  takeOutput(): string {
    return this.out.splice(0).join("");
  }

  /** A path as tofu shows it: relative to the working directory. */
  private display(p: string): string {
    return path.relative(this.io.cwd, path.resolve(this.io.cwd, p)) || ".";
  }

  private abs(p: string): string {
    return path.resolve(this.io.cwd, p);
  }

  paths(paths: readonly string[]): void {
    for (const given of paths) {
      const p = this.display(given);
      let isDir: boolean;
      try {
        isDir = statSync(this.abs(p)).isDirectory();
      } catch {
        this.diags.push(errorDiag("Invalid file or directory path", `No file or directory at ${p}`));
        return;
      }
      if (isDir) {
        this.dir(p);
      } else if (isFormattedFile(p)) {
        this.fileAt(p);
      } else {
        this.diags.push(
          errorDiag(
            "Invalid file extension",
            `Only ${FORMATTED_EXTENSIONS.slice(0, -1).join(", ")}, and ${FORMATTED_EXTENSIONS[FORMATTED_EXTENSIONS.length - 1]} files can be processed with terrace fmt`,
          ),
        );
      }
    }
  }

  private dir(p: string): void {
    let entries: Dirent[];
    try {
      entries = readdirSync(this.abs(p), { withFileTypes: true }).sort((a, b) => byBytes(a.name, b.name));
    } catch (err) {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      this.diags.push(errorDiag("Invalid path", missing ? `There is no configuration directory at ${p}` : `Cannot read directory ${p}`));
      return;
    }
    for (const entry of entries) {
      const name = entry.name;
      if (isIgnored(name)) continue;
      const sub = path.join(p, name);
      // As Go's DirEntry, a symbolic link is not a directory here, so links are not followed down.
      if (entry.isDirectory()) {
        // Like `tofu plan`, one module at a time unless asked to recurse.
        if (this.o.recursive) this.dir(sub);
        continue;
      }
      if (isFormattedFile(name)) this.fileAt(sub);
    }
  }

  private fileAt(p: string): void {
    let src: Buffer;
    try {
      src = readFileSync(this.abs(p));
    } catch {
      this.diags.push(errorDiag("Failed to open file", `Failed to read file ${p}`));
      return;
    }
    this.file(p, src);
  }

  file(p: string, src: Uint8Array): void {
    const r = formatConfig(src, p);
    this.sources.set(p, { source: r.source, body: r.body });
    this.diags.push(...r.diagnostics);
    if (r.formatted === undefined) return;
    const result = encodeFormatted(r.formatted);
    const changed = !Buffer.from(src).equals(result);
    if (changed) {
      if (this.o.list) this.output(`${p}\n`);
      if (this.o.write) {
        try {
          writeFileSync(this.abs(p), result);
        } catch {
          this.diags.push(errorDiag("Writing formatted file failed", `Failed to write ${p}`));
          return;
        }
      }
      if (this.o.diff) this.output(diffText(src, result, r.source, r.formatted, p));
    }
    if (!this.o.list && !this.o.write && !this.o.diff) this.output(r.formatted);
  }
}

/**
 * The diff as tofu prints it, from GNU diff where it is installed (tofu runs it too), else from
 * our own unified diff writer.
 */
function diffText(before: Uint8Array, after: Uint8Array, beforeText: string, afterText: string, p: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "terrace-fmt-"));
  try {
    const a = path.join(dir, "old");
    const b = path.join(dir, "new");
    writeFileSync(a, before);
    writeFileSync(b, after);
    const r = spawnSync("diff", [`--label=old/${p}`, `--label=new/${p}`, "-u", a, b], { encoding: "utf8" });
    if (!r.error && r.stdout.length > 0) return r.stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return unifiedDiff(beforeText, afterText, p);
}

async function readAll(stream: CommandIO["stdin"]): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export const fmtCommand: Command = async (args, io) => {
  const o = parseArgs(args);
  if (typeof o === "string") {
    io.stderr.write(`${HELP}\nError parsing command-line flags: ${o}\n`);
    return 1;
  }
  if (o.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const stdin = o.paths[0] === "-";
  if (stdin) {
    o.list = false;
    o.write = false;
  }
  const paths = o.paths.length === 0 ? ["."] : o.paths;
  const showList = o.list;
  if (o.check) {
    // The list of files to change is the answer; nothing is written.
    o.list = true;
    o.write = false;
  }
  const run = new FmtRun(io, o);
  if (stdin) run.file("<stdin>", await readAll(io.stdin));
  else run.paths(paths);

  const output = run.takeOutput();
  if (!o.check) io.stdout.write(output);
  const color = !o.noColor && io.stderr.isTTY === true;
  // Details wrap at the terminal's width, or at 78 columns when it is not a terminal, as tofu's do.
  const width = io.stderr.isTTY === true ? ((io.stderr as { columns?: number }).columns ?? 78) : 78;
  for (const d of run.diags) io.stderr.write(`${renderDiagnostic(d, run.sources, { color, rule: color, width })}\n`);
  if (run.diags.some((d) => d.severity === "error")) return 2;
  if (o.check) {
    if (showList) io.stdout.write(output);
    return output.length === 0 ? 0 : 3;
  }
  return 0;
};
