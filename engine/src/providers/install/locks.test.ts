// The lock file: each testdata/locks-files/*.hcl marks the diagnostics it must produce with
// "# ERROR: <summary>" / "# WARNING: <summary>" on the line of the diagnostic's subject (OpenTofu's
// own depsfile test convention), and the writer must reproduce terraform's files byte for byte.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mustParseProviderSourceString } from "../../addrs/index.js";
import { mustParseVersion, mustParseVersionConstraints, versionConstraintsString, versionString } from "../../versions/index.js";
import { loadLocksFromBytes, Locks, saveLocksToBytes } from "./locks.js";

const LOCKS_DIR = path.join(import.meta.dirname, "testdata", "locks-files");
const TF_DIR = path.join(import.meta.dirname, "testdata", "terraform");

describe("loadLocksFromBytes diagnostics", () => {
  const files = readdirSync(LOCKS_DIR).filter((f) => f.endsWith(".hcl")).sort();
  it.each(files)("%s", (name) => {
    const src = readFileSync(path.join(LOCKS_DIR, name), "utf8");
    const want = new Map<string, string>();
    src.split("\n").forEach((line, i) => {
      const e = line.indexOf("# ERROR: ");
      if (e >= 0) want.set(`${i + 1} error`, line.slice(e + 9));
      const w = line.indexOf("# WARNING: ");
      if (w >= 0) want.set(`${i + 1} warning`, line.slice(w + 11));
    });
    const { diagnostics } = loadLocksFromBytes(src, name, { currentVersion: "1.10.0" });
    // Keyed by line and severity, the last diagnostic winning, exactly as OpenTofu's test does.
    const got = new Map<string, string>();
    for (const d of diagnostics) got.set(`${d.subject?.start.line ?? "?"} ${d.severity}`, d.summary);
    expect(Object.fromEntries([...got].sort())).toEqual(Object.fromEntries([...want].sort()));
  });

  it("reads every part of a valid file", () => {
    const { locks } = loadLocksFromBytes(readFileSync(path.join(LOCKS_DIR, "valid-provider-locks.hcl")), "valid.hcl");
    const all = locks.allProviders().map((l) => [l.provider.toString(), versionString(l.version), versionConstraintsString(l.constraints), l.hashes]);
    expect(all).toEqual([
      ["example.com/test/all-the-things", "3.0.10", ">= 3.0.2", ["test:placeholder-hash-1", "test:placeholder-hash-2", "test:placeholder-hash-3"]],
      ["example.com/test/version-and-constraints", "1.2.0", "~> 1.2", []],
      ["example.com/test/version-only", "1.0.0", "", []],
    ]);
  });

  const details: [string, string][] = [
    [
      'provider "example.com/a/b" {\n  version = "1.0"\n}\n',
      'The selected version number for provider example.com/a/b must be written in normalized form: "1.0.0".',
    ],
    [
      'provider "example.com/a/b" {\n  version = "1.0.0"\n  constraints = "~> 1"\n}\n',
      'The recorded version constraints for provider example.com/a/b must be written in normalized form: "~> 1.0".',
    ],
    [
      'provider "example.com/a/b" {\n  version = "v1"\n}\n',
      'The selected version number for provider example.com/a/b is invalid: a "v" prefix should not be used.',
    ],
    [
      'provider "hashicorp/aws" {\n  version = "1.0.0"\n}\n',
      'The provider source address for this provider lock must be written as "registry.opentofu.org/hashicorp/aws", the fully-qualified and normalized form.',
    ],
    [
      'provider "terraform.io/builtin/terraform" {\n}\n',
      "Cannot lock a version for built-in provider terraform.io/builtin/terraform. Built-in providers are bundled inside OpenTofu itself, so you can't select a version for them independently of the OpenTofu release you are currently running.",
    ],
    [
      'provider "example.com/a/b" {\n  version = "1.0.0"\n}\nprovider "example.com/a/b" {\n  version = "1.0.0"\n}\n',
      "This lockfile already declared a lock for provider example.com/a/b at x.hcl:1,1-27.",
    ],
    [
      'provider "example.com/a/b" {\n  version = "1.0.0"\n  hashes = ["nope"]\n}\n',
      'Cannot interpret "nope" as a provider hash: hash string must start with a scheme keyword followed by a colon.',
    ],
  ];
  it.each(details)("detail for %j", (src, want) => {
    const { diagnostics } = loadLocksFromBytes(src, "x.hcl");
    expect(diagnostics.map((d) => d.detail)).toContain(want);
  });
});

describe("saveLocksToBytes", () => {
  it("writes OpenTofu's layout (its own SaveLocksToFile test, with our default registry)", () => {
    const locks = new Locks();
    const p = (s: string) => mustParseProviderSourceString(s);
    locks.setProvider(p("test/foo"), mustParseVersion("1.0.0"), mustParseVersionConstraints(">= 1.0.0"), [
      "test:cccccccccccccccccccccccccccccccccccccccccccccccc",
      "test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
      "test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ]);
    locks.setProvider(p("test/bar"), mustParseVersion("1.2.0"), mustParseVersionConstraints("~> 1"), []);
    locks.setProvider(p("test/baz"), mustParseVersion("1.2.0"), [], []);
    locks.setProvider(p("test/boo"), mustParseVersion("1.2.0"), mustParseVersionConstraints("1.2"), []);
    expect(saveLocksToBytes(locks)).toBe(`# This file is maintained automatically by "tofu init".
# Manual edits may be lost in future updates.

provider "registry.opentofu.org/test/bar" {
  version     = "1.2.0"
  constraints = "~> 1.0"
}

provider "registry.opentofu.org/test/baz" {
  version = "1.2.0"
}

provider "registry.opentofu.org/test/boo" {
  version     = "1.2.0"
  constraints = "1.2.0"
}

provider "registry.opentofu.org/test/foo" {
  version     = "1.0.0"
  constraints = ">= 1.0.0"
  hashes = [
    "test:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "test:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    "test:cccccccccccccccccccccccccccccccccccccccccccccccc",
  ]
}
`);
  });

  it("writes just the header when there are no locks", () => {
    expect(saveLocksToBytes(new Locks())).toBe('# This file is maintained automatically by "tofu init".\n# Manual edits may be lost in future updates.\n');
  });

  const tfFiles = readdirSync(TF_DIR).filter((f) => f.endsWith(".hcl"));
  it.each(tfFiles)("round-trips terraform's %s byte for byte", (name) => {
    const src = readFileSync(path.join(TF_DIR, name), "utf8");
    const { locks, diagnostics } = loadLocksFromBytes(src, name);
    expect(diagnostics).toEqual([]);
    expect(saveLocksToBytes(locks, { command: "terraform" })).toBe(src);
  });
});

describe("Locks", () => {
  it("dedupes and sorts hashes, and compares without constraints", () => {
    const a = new Locks();
    const b = new Locks();
    const p = mustParseProviderSourceString("example.com/a/b");
    a.setProvider(p, mustParseVersion("1.0.0"), mustParseVersionConstraints(">= 1.0.0"), ["h1:b", "h1:a", "h1:b"]);
    b.setProvider(p, mustParseVersion("1.0.0"), [], ["h1:a", "h1:b"]);
    expect(a.provider(p)?.hashes).toEqual(["h1:a", "h1:b"]);
    expect(a.equal(b)).toBe(true);
    b.setProvider(p, mustParseVersion("1.0.0+x"), [], ["h1:a", "h1:b"]);
    expect(a.equal(b)).toBe(false);
    const c = a.deepCopy();
    c.removeProvider(p);
    expect([a.empty(), c.empty()]).toEqual([false, true]);
  });
  it("refuses built-in providers", () => {
    expect(() => new Locks().setProvider(mustParseProviderSourceString("terraform.io/builtin/terraform"), mustParseVersion("1.0.0"), [], [])).toThrow();
  });
});
