import { afterEach, describe, expect, it } from "vitest";
import { formatJSON, formatPlain, hclogJSONTime, hclogTime, type LogEntry } from "./hclog.js";

const T = new Date(Date.UTC(2026, 10, 25, 9, 5, 7, 42));
const entry = (e: Partial<LogEntry>): LogEntry => ({ time: T, name: "", level: "info", message: "m", args: [], ...e });

describe("hclog text lines", () => {
  const tz = process.env.TZ;
  afterEach(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it("stamps local time with milliseconds and Z or the offset, as hclog.TimeFormat", () => {
    process.env.TZ = "UTC";
    expect(hclogTime(T)).toBe("2026-11-25T09:05:07.042Z");
    process.env.TZ = "Europe/Berlin";
    expect(hclogTime(T)).toBe("2026-11-25T10:05:07.042+0100");
    process.env.TZ = "America/St_Johns";
    expect(hclogTime(T)).toBe("2026-11-25T05:35:07.042-0330");
  });

  it("stamps JSON lines with microseconds and a colon in the offset, the layout go-plugin parses", () => {
    process.env.TZ = "UTC";
    expect(hclogJSONTime(T)).toBe("2026-11-25T09:05:07.042000Z");
    process.env.TZ = "America/St_Johns";
    expect(hclogJSONTime(T)).toBe("2026-11-25T05:35:07.042000-03:30");
  });

  it("pads the level brackets so that messages line up, and names the logger", () => {
    process.env.TZ = "UTC";
    expect(formatPlain(entry({ level: "info", message: "OpenTofu version: 1.11.0" }))).toBe("2026-11-25T09:05:07.042Z [INFO]  OpenTofu version: 1.11.0\n");
    expect(formatPlain(entry({ level: "warn", name: "provider", message: "x" }))).toBe("2026-11-25T09:05:07.042Z [WARN]  provider: x\n");
    expect(formatPlain(entry({ level: "trace", message: "x" }))).toContain(" [TRACE] x");
    expect(formatPlain(entry({ level: "error", message: "x" }))).toContain(" [ERROR] x");
  });

  it("writes arguments after a colon, quoting only values with characters outside - to ~", () => {
    process.env.TZ = "UTC";
    const line = formatPlain(
      entry({
        level: "debug",
        name: "provider",
        message: "starting plugin",
        args: [
          ["path", "/usr/bin/terraform-provider-null"],
          ["args", ["/usr/bin/terraform-provider-null", "a b"]],
          ["pid", 42],
          ["empty", ""],
          ["spaced", "two words"],
          ["quote", 'say "hi"'],
          ["ok", true],
          ["err", new Error("exit status 1")],
        ],
      }),
    );
    expect(line).toBe(
      '2026-11-25T09:05:07.042Z [DEBUG] provider: starting plugin: path=/usr/bin/terraform-provider-null args=["/usr/bin/terraform-provider-null", "a b"] pid=42 empty="" spaced="two words" quote="say \\"hi\\"" ok=true err="exit status 1"\n',
    );
  });

  it("puts a multi-line value on indented lines of its own", () => {
    process.env.TZ = "UTC";
    expect(formatPlain(entry({ message: "m", args: [["body", "line 1\nline 2\n"], ["next", "x"]] }))).toBe(
      "2026-11-25T09:05:07.042Z [INFO]  m:\n  body=\n  | line 1\n  | line 2\n   next=x\n",
    );
  });

  it("names a value given without a key EXTRA_VALUE_AT_END (through Logger)", async () => {
    const { Logger } = await import("./logger.js");
    let out = "";
    new Logger({ json: false, write: (t) => (out += t) }, "", 1).info("m", "k", 1, "lonely");
    expect(out).toMatch(/ m: k=1 EXTRA_VALUE_AT_END=lonely\n$/);
  });
});

describe("hclog JSON lines (TF_LOG=JSON)", () => {
  it("sorts the keys as encoding/json sorts a map's, escapes as Go does, and lets arguments replace fields", () => {
    process.env.TZ = "UTC";
    const line = formatJSON(entry({ level: "warn", name: "provider", message: "a <b> & c", args: [["zeta", 1], ["alpha", ["x", 2]], ["nested", { b: true, a: null }]] }));
    expect(line).toBe(
      '{"@level":"warn","@message":"a \\u003cb\\u003e \\u0026 c","@module":"provider","@timestamp":"2026-11-25T09:05:07.042Z","alpha":["x",2],"nested":{"a":null,"b":true},"zeta":1}\n',
    );
    expect(JSON.parse(formatJSON(entry({ args: [["@message", "replaced"]] })))["@message"]).toBe("replaced");
  });

  it("leaves @module out for the unnamed logger", () => {
    expect(Object.keys(JSON.parse(formatJSON(entry({}))))).toEqual(["@level", "@message", "@timestamp"]);
  });
});
