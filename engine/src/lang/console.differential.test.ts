// The differential check against the real CLI: every expression of the console corpus
// (testdata/console/*.txt) is evaluated by our console session and compared exactly with what
// `terraform console` answered (recorded in *.terraform.json by scripts/console-oracle.mjs, so this
// test needs no terraform). Output text must be identical; errors must have the same summary and
// detail. A mismatch fails the test unless testdata/console/differences.md lists the expression
// with its reason; a listed expression that now matches fails it too, so that list stays true.
// OpenTofu-only functions cannot be asked of terraform: testdata/console/opentofu-only.console
// holds hand-written expected answers for them, checked here as well.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NodeFunctionFileSystem } from "../cli/function-fs.js";
import { type ConsoleAnswer, type ConsoleSession, createConsoleSession } from "./console/index.js";
import type { FunctionContext } from "./functions/index.js";

const corpusDir = path.join(import.meta.dirname, "testdata/console");
/** Terraform ran in this directory (file functions read its fixtures); our context is rooted there too. */
const fixturesDir = path.join(corpusDir, "files");
/** The oracle runs terraform with HOME set to this, so pathexpand answers the same everywhere. */
const HOME = "/home/terrace";

class FixtureFileSystem extends NodeFunctionFileSystem {
  override home(): string {
    return HOME;
  }
}

/** Session options as `terraform console` saw them: run in the fixtures directory. */
function sessionOptions() {
  return { functionContext: functionContext(), paths: { cwd: fixturesDir } };
}

function functionContext(): FunctionContext {
  return {
    baseDir: ".",
    fs: new FixtureFileSystem(fixturesDir),
    now: () => new Date(),
    randomBytes: (n) => globalThis.crypto.getRandomValues(new Uint8Array(n)),
  };
}

/** Evaluates, turning a thrown exception (always a bug: the console must answer) into an answer. */
function ask(session: ConsoleSession, expr: string): ConsoleAnswer {
  try {
    return session.evaluate(expr);
  } catch (e) {
    return { ok: false, summary: "(exception thrown)", detail: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
  }
}

function sameAnswer(a: ConsoleAnswer, b: ConsoleAnswer): boolean {
  if (a.ok && b.ok) return a.output === b.output;
  if (!a.ok && !b.ok) return a.summary === b.summary && a.detail === b.detail;
  return false;
}

/** An answer as transcript text (the notation of opentofu-only.console and differences.md). */
function show(a: ConsoleAnswer): string {
  if (a.ok) return a.output;
  return [`! ${a.summary}`, ...a.detail.split("\n").map((l) => (l === "" ? "!" : `! ${l}`))].join("\n");
}

/** Parses transcript answer text: `! summary` + `! detail` lines for an error, else output lines. */
function parseAnswer(lines: readonly string[]): ConsoleAnswer {
  if (lines.length > 0 && lines[0]?.startsWith("! ")) {
    const [first, ...rest] = lines;
    const detail = rest.map((l) => (l === "!" ? "" : l.replace(/^! /, ""))).join("\n");
    return { ok: false, summary: (first ?? "").slice(2), detail };
  }
  return { ok: true, output: lines.join("\n") };
}

function trimBlankTail(lines: string[]): string[] {
  const out = [...lines];
  while (out.length > 0 && out[out.length - 1]?.trim() === "") out.pop();
  return out;
}

interface Recorded {
  terraformVersion: string;
  answers: Record<string, ConsoleAnswer>;
}

interface CorpusFile {
  name: string;
  exprs: string[];
  recorded: Recorded | undefined;
}

function loadCorpus(): CorpusFile[] {
  return readdirSync(corpusDir)
    .filter((f) => f.endsWith(".txt"))
    .sort()
    .map((name) => {
      const exprs = [
        ...new Set(
          readFileSync(path.join(corpusDir, name), "utf8")
            .split("\n")
            .filter((l) => l.trim() !== "" && !l.trimStart().startsWith("#")),
        ),
      ];
      const json = path.join(corpusDir, name.replace(/\.txt$/, ".terraform.json"));
      let recorded: Recorded | undefined;
      try {
        recorded = JSON.parse(readFileSync(json, "utf8")) as Recorded;
      } catch {
        recorded = undefined;
      }
      return { name, exprs, recorded };
    });
}

interface Difference {
  expr: string;
  reason: string;
  /** What OpenTofu answers, when the entry says; our answer must then be exactly this. */
  opentofu: ConsoleAnswer | undefined;
}

/**
 * differences.md: each difference is a `### ` heading holding the expression as a code span,
 * followed by the reason and optionally a ```tofu fenced block with OpenTofu's answer.
 */
function loadDifferences(): Difference[] {
  const text = readFileSync(path.join(corpusDir, "differences.md"), "utf8");
  const out: Difference[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const heading = /^### (`+) ?(.*?) ?\1\s*$/.exec(lines[i] ?? "");
    if (!heading) continue;
    const expr = heading[2] ?? "";
    const reason: string[] = [];
    let opentofu: ConsoleAnswer | undefined;
    let j = i + 1;
    for (; j < lines.length && !(lines[j] ?? "").startsWith("#"); j++) {
      const line = lines[j] ?? "";
      if (line.startsWith("```tofu")) {
        const block: string[] = [];
        for (j++; j < lines.length && !(lines[j] ?? "").startsWith("```"); j++) block.push(lines[j] ?? "");
        opentofu = parseAnswer(block);
      } else if (line.trim() !== "") reason.push(line.trim());
    }
    i = j - 1;
    out.push({ expr, reason: reason.join(" "), opentofu });
  }
  return out;
}

interface Expectation {
  expr: string;
  answer: ConsoleAnswer;
  source: string;
}

/** opentofu-only.console: `> expr` lines, each followed by its answer in transcript notation. */
function loadOpenTofuOnly(): Expectation[] {
  const lines = readFileSync(path.join(corpusDir, "opentofu-only.console"), "utf8").split("\n");
  const out: Expectation[] = [];
  let current: { expr: string; lines: string[]; source: string } | undefined;
  let source = "";
  const flush = () => {
    if (current) out.push({ expr: current.expr, answer: parseAnswer(trimBlankTail(current.lines)), source: current.source });
  };
  for (const line of lines) {
    if (line.startsWith("> ")) {
      flush();
      current = { expr: line.slice(2), lines: [], source };
    } else if (current && !line.startsWith("## ")) {
      current.lines.push(line);
    } else if (line.startsWith("## ")) {
      // A section heading (one or more `## ` lines) names where the answers below come from.
      if (current) source = "";
      flush();
      current = undefined;
      source = `${source} ${line.slice(3).trim()}`.trim();
    }
  }
  flush();
  return out;
}

/**
 * Every function in OpenTofu's function index (internal/lang/functions.go plus `ephemeralasnull`,
 * and the console-only `type`). The corpus must call each one, outside the function helpers' files.
 */
const OPENTOFU_FUNCTIONS = `abs abspath alltrue anytrue base64decode base64encode base64gunzip base64gzip base64sha256
base64sha512 basename bcrypt can ceil chomp chunklist cidrcontains cidrhost cidrnetmask cidrsubnet cidrsubnets coalesce
coalescelist compact concat contains csvdecode dirname distinct element endswith ephemeralasnull file filebase64
filebase64sha256 filebase64sha512 fileexists filemd5 fileset filesha1 filesha256 filesha512 flatten floor format
formatdate formatlist indent index issensitive join jsondecode jsonencode keys length list log lookup lower map
matchkeys max md5 merge min nonsensitive one parseint pathexpand plantimestamp pow range regex regexall replace reverse
rsadecrypt sensitive setintersection setproduct setsubtract setunion sha1 sha256 sha512 signum slice sort split
startswith strcontains strrev substr sum templatefile templatestring textdecodebase64 textencodebase64 timeadd timecmp
timestamp title tobool tolist tomap tonumber toset tostring transpose trim trimprefix trimspace trimsuffix try type
upper urldecode urlencode uuid uuidv5 values yamldecode yamlencode zipmap`.split(/\s+/);

interface Mismatch {
  file: string;
  expr: string;
  ours: ConsoleAnswer;
  theirs: ConsoleAnswer;
}

const corpus = loadCorpus();
const differences = loadDifferences();
const documented = new Map(differences.map((d) => [d.expr, d]));
const mismatches: Mismatch[] = [];
const matchedDocumented = new Set<string>();
let compared = 0;
let matched = 0;

function describeMismatch(m: Mismatch): string {
  return `[${m.file}] ${m.expr}\n  ours:\n${indent(show(m.ours))}\n  terraform:\n${indent(show(m.theirs))}`;
}

function indent(s: string): string {
  return s
    .split("\n")
    .map((l) => `    ${l}`)
    .join("\n");
}

describe("console differential check against terraform console", () => {
  it("has the corpus the issue asks for, every expression with a recorded answer", () => {
    const total = corpus.reduce((n, f) => n + f.exprs.length, 0);
    expect(total).toBeGreaterThanOrEqual(1500);
    const unrecorded = corpus.flatMap((f) => f.exprs.filter((e) => !f.recorded?.answers[e]).map((e) => `${f.name}: ${e}`));
    expect(unrecorded, "expressions without a recorded answer: run node engine/scripts/console-oracle.mjs").toEqual([]);
  });

  it("calls every OpenTofu built-in function", () => {
    const text = [
      ...corpus.filter((f) => !f.name.startsWith("functions-")).flatMap((f) => f.exprs),
      readFileSync(path.join(corpusDir, "opentofu-only.console"), "utf8"),
    ].join("\n");
    const missing = OPENTOFU_FUNCTIONS.filter((fn) => !new RegExp(`\\b${fn}\\(`).test(text));
    expect(missing).toEqual([]);
  });

  for (const file of corpus) {
    it(`${file.name} (${file.exprs.length} expressions) matches terraform console`, () => {
      const session = createConsoleSession(sessionOptions());
      const unexplained: Mismatch[] = [];
      for (const expr of file.exprs) {
        const theirs = file.recorded?.answers[expr];
        if (!theirs) continue; // reported by the corpus test above
        const ours = ask(session, expr);
        compared++;
        if (sameAnswer(ours, theirs)) {
          matched++;
          if (documented.has(expr)) matchedDocumented.add(expr);
          continue;
        }
        const m: Mismatch = { file: file.name, expr, ours, theirs };
        mismatches.push(m);
        const diff = documented.get(expr);
        if (!diff) unexplained.push(m);
        else if (diff.opentofu && !sameAnswer(ours, diff.opentofu)) {
          unexplained.push({ ...m, theirs: diff.opentofu, file: `${file.name}, differences.md OpenTofu answer` });
        }
      }
      const shown = unexplained.slice(0, 25).map(describeMismatch).join("\n\n");
      const more = unexplained.length > 25 ? `\n\n… and ${unexplained.length - 25} more` : "";
      expect(unexplained.length, `unexplained mismatches in ${file.name}:\n\n${shown}${more}`).toBe(0);
    });
  }

  it("differences.md lists only expressions of the corpus that still differ", () => {
    const unexplained = mismatches.filter((m) => !documented.has(m.expr)).length;
    console.log(
      `differential: ${matched}/${compared} match` +
        ` (${mismatches.length - unexplained} documented differences, ${unexplained} unexplained)`,
    );
    // CONSOLE_DIFF_REPORT=<file> writes every mismatch as JSON, for triage.
    const report = process.env.CONSOLE_DIFF_REPORT;
    if (report) writeFileSync(report, JSON.stringify(mismatches, null, 1));
    const inCorpus = new Set(corpus.flatMap((f) => f.exprs));
    const notInCorpus = differences.filter((d) => !inCorpus.has(d.expr)).map((d) => d.expr);
    expect(notInCorpus, "differences.md lists expressions that are not in the corpus").toEqual([]);
    const stale = [...matchedDocumented];
    expect(stale, "differences.md lists expressions that now match terraform: remove them").toEqual([]);
    const unexplainedReason = differences.filter((d) => d.reason === "").map((d) => d.expr);
    expect(unexplainedReason, "differences.md entries need a reason").toEqual([]);
  });

  it("OpenTofu-only functions answer as OpenTofu documents (opentofu-only.console)", () => {
    const expectations = loadOpenTofuOnly();
    expect(expectations.length).toBeGreaterThan(0);
    const session = createConsoleSession(sessionOptions());
    const wrong = expectations
      .map((e) => ({ e, ours: ask(session, e.expr) }))
      .filter(({ e, ours }) => !sameAnswer(ours, e.answer))
      .map(({ e, ours }) => `${e.expr}   (${e.source})\n  ours:\n${indent(show(ours))}\n  expected:\n${indent(show(e.answer))}`);
    console.log(`opentofu-only: ${expectations.length - wrong.length}/${expectations.length} match`);
    expect(wrong.length, `OpenTofu-only expressions that answer differently:\n\n${wrong.slice(0, 25).join("\n\n")}`).toBe(0);
  });
});
