// A provider's own log, as go-plugin plugins write theirs: hclog JSON lines on stderr, which the
// host (Terrace, OpenTofu, Terraform) reads and re-logs under `provider.<executable>` at each
// line's level. The level comes from TF_LOG_PROVIDER, else TF_LOG (the host passes both on);
// without either the log is off and costs one comparison per call site.
import { AsyncLocalStorage } from "node:async_hooks";
import { LEVEL_RANK, OFF_RANK, hclogJSONTime, levelFromString } from "../logging/hclog.js";
import { Logger, type LogSink } from "../logging/logger.js";

function threshold(env: NodeJS.ProcessEnv): number {
  const value = (env.TF_LOG_PROVIDER || env.TF_LOG || "").toUpperCase();
  if (value === "" || value === "OFF") return OFF_RANK;
  const level = levelFromString(value);
  return level === undefined ? LEVEL_RANK.trace : LEVEL_RANK[level];
}

/** The provider's root logger (name `provider`), for `env`; writes to `write` (stderr). */
export function providerLogger(env: NodeJS.ProcessEnv = process.env, write: (text: string) => void = (t) => void process.stderr.write(t)): Logger {
  const level = threshold(env);
  const sink: LogSink = { json: true, jsonTime: hclogJSONTime, write };
  return new Logger(level < OFF_RANK ? sink : undefined, "provider", level);
}

/** The logger of the request being served, set by the server only while logging is on. */
const requestScope = new AsyncLocalStorage<Logger>();
let processLogger: Logger | undefined;

/**
 * For a provider's handlers: the log of the request being served, whose lines carry the request's
 * `tf_req_id`, `tf_rpc` and resource type (as terraform-plugin-log's tflog does), or the
 * provider's own logger outside a request. Off, and free, unless TF_LOG asks.
 *
 *   requestLogger().debug("created bucket", "name", name);
 */
export function requestLogger(): Logger {
  return requestScope.getStore() ?? (processLogger ??= providerLogger());
}

/** Runs `f` with `log` as the request's logger. */
export function withRequestLogger<T>(log: Logger, f: () => T): T {
  return requestScope.run(log, f);
}
