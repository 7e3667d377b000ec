import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEVEL_RANK } from "./hclog.js";
import { Logger } from "./logger.js";
import { logPluginLine } from "./plugin_output.js";

function capture(level: keyof typeof LEVEL_RANK = "trace") {
  const lines: string[] = [];
  const log = new Logger({ json: false, write: (t) => void lines.push(t) }, "provider.terraform-provider-aws_v5.0.0_x5", LEVEL_RANK[level]);
  // Drop the host's own timestamp: the rest is what matters.
  return { log, lines: () => lines.map((l) => l.replace(/^\S+ /, "")) };
}

describe("a plugin's stderr in the host's log (go-plugin's logStderr)", () => {
  const tz = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = "UTC";
  });
  afterAll(() => {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  });

  it("re-logs an hclog JSON line at its level, its arguments sorted, with the plugin's timestamp", () => {
    const c = capture();
    logPluginLine(
      c.log,
      '{"@level":"debug","@message":"Calling downstream","@module":"sdk.proto","@timestamp":"2026-11-25T09:05:07.042123Z","tf_rpc":"PlanResourceChange","tf_req_id":"abc"}',
    );
    expect(c.lines()).toEqual([
      "[DEBUG] provider.terraform-provider-aws_v5.0.0_x5: Calling downstream: @module=sdk.proto tf_req_id=abc tf_rpc=PlanResourceChange timestamp=2026-11-25T09:05:07.042Z\n",
    ]);
  });

  it("infers the level of a plain line from its [LEVEL] prefix, else logs it at DEBUG", () => {
    const c = capture();
    logPluginLine(c.log, "[WARN] something odd");
    logPluginLine(c.log, "[ERROR] broken");
    logPluginLine(c.log, "panic: runtime error");
    expect(c.lines()).toEqual([
      "[WARN]  provider.terraform-provider-aws_v5.0.0_x5: [WARN] something odd\n",
      "[ERROR] provider.terraform-provider-aws_v5.0.0_x5: [ERROR] broken\n",
      "[DEBUG] provider.terraform-provider-aws_v5.0.0_x5: panic: runtime error\n",
    ]);
  });

  it("logs JSON that is not an hclog entry verbatim at DEBUG, and an entry without @timestamp with Go's zero time", () => {
    const c = capture();
    logPluginLine(c.log, '{"hello":"world"}');
    logPluginLine(c.log, '{"@level":"info","@message":"no time"}');
    expect(c.lines()).toEqual([
      '[DEBUG] provider.terraform-provider-aws_v5.0.0_x5: {"hello":"world"}\n',
      "[INFO]  provider.terraform-provider-aws_v5.0.0_x5: no time: timestamp=0001-01-01T00:00:00.000Z\n",
    ]);
  });

  it("keeps lines below the provider level out", () => {
    const c = capture("warn");
    logPluginLine(c.log, '{"@level":"trace","@message":"chatty","@timestamp":"2026-11-25T09:05:07.042123Z"}');
    logPluginLine(c.log, "[INFO] chatty too");
    logPluginLine(c.log, '{"@level":"error","@message":"bad","@timestamp":"2026-11-25T09:05:07.042123Z"}');
    expect(c.lines()).toEqual(["[ERROR] provider.terraform-provider-aws_v5.0.0_x5: bad: timestamp=2026-11-25T09:05:07.042Z\n"]);
  });
});
