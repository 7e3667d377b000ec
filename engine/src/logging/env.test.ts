import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loggingFromEnv } from "./env.js";

function setup(env: Record<string, string>) {
  let stderr = "";
  const s = loggingFromEnv(env, { write: (t: string) => (stderr += t) });
  return { ...s, stderr: () => stderr };
}

describe("TF_LOG and friends", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("is off without TF_LOG: nothing is written", () => {
    const s = setup({});
    s.loggers.core.error("x");
    s.loggers.provider.error("x");
    expect(s.stderr()).toBe("");
    expect(s.loggers.core.enabled("error")).toBe(false);
  });

  it("takes a level in any case and logs it and everything more severe", () => {
    const s = setup({ TF_LOG: "debug" });
    expect(s.loggers.core.enabled("trace")).toBe(false);
    expect(s.loggers.core.enabled("debug")).toBe(true);
    expect(s.loggers.provider.enabled("debug")).toBe(true);
    s.loggers.core.trace("hidden");
    s.loggers.core.debug("shown");
    expect(s.stderr()).toMatch(/^\S+ \[DEBUG\] shown\n$/);
    expect(s.loggers.pluginEnv).toEqual({ TF_LOG: "debug" });
  });

  it("gives the providers their own level with TF_LOG_PROVIDER, and the core TF_LOG_CORE when TF_LOG is unset", () => {
    const s = setup({ TF_LOG_CORE: "ERROR", TF_LOG_PROVIDER: "TRACE" });
    expect(s.loggers.core.enabled("warn")).toBe(false);
    expect(s.loggers.core.enabled("error")).toBe(true);
    expect(s.loggers.provider.enabled("trace")).toBe(true);
    expect(s.loggers.pluginEnv).toEqual({ TF_LOG_PROVIDER: "TRACE" });
    const t = setup({ TF_LOG: "WARN", TF_LOG_CORE: "TRACE" });
    expect(t.loggers.core.enabled("info")).toBe(false);
    const off = setup({ TF_LOG: "TRACE", TF_LOG_PROVIDER: "OFF" });
    expect(off.loggers.provider.enabled("error")).toBe(false);
    expect(off.loggers.core.enabled("trace")).toBe(true);
  });

  it("warns about an unknown level, as OpenTofu does, and logs at TRACE", () => {
    const s = setup({ TF_LOG: "verbose" });
    expect(s.stderr()).toBe('[WARN] Invalid log level: "VERBOSE". Defaulting to level: TRACE. Valid levels are: [TRACE DEBUG INFO WARN ERROR OFF]\n');
    expect(s.loggers.core.enabled("trace")).toBe(true);
  });

  it("writes JSON lines at TRACE for TF_LOG=JSON", () => {
    const s = setup({ TF_LOG: "JSON" });
    s.loggers.provider.trace("hello", "k", "v");
    const line = JSON.parse(s.stderr()) as Record<string, unknown>;
    expect(line).toMatchObject({ "@level": "trace", "@message": "hello", "@module": "provider", k: "v" });
  });

  it("appends to TF_LOG_PATH instead of stderr, across invocations", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "terrace-log-"));
    dirs.push(dir);
    const file = path.join(dir, "tofu.log");
    for (const message of ["first", "second"]) {
      const s = setup({ TF_LOG: "INFO", TF_LOG_PATH: file });
      s.loggers.core.info(message);
      s.close();
      expect(s.stderr()).toBe("");
    }
    expect(readFileSync(file, "utf8")).toMatch(/^\S+ \[INFO\]  first\n\S+ \[INFO\]  second\n$/);
  });

  it("says when the log file cannot be opened and logs to stderr instead", () => {
    const s = setup({ TF_LOG: "INFO", TF_LOG_PATH: "/nonexistent-dir/tofu.log" });
    s.loggers.core.info("still here");
    expect(s.stderr()).toMatch(/^Error opening log file: open \/nonexistent-dir\/tofu.log: no such file or directory\n\S+ \[INFO\]  still here\n$/);
  });
});
