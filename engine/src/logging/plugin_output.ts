// A plugin's stderr lines in the host's log, as go-plugin's client passes them on: a line that is
// an hclog JSON entry keeps its level, message and arguments (plus the plugin's own `timestamp`);
// any other line is logged at the level its `[TRACE]`…`[ERROR]` prefix names, else at DEBUG.
import { hclogTime, levelFromString, type Level, type LogValue } from "./hclog.js";
import type { Logger } from "./logger.js";

const PREFIXES: readonly (readonly [string, Level])[] = [
  ["[TRACE]", "trace"],
  ["[DEBUG]", "debug"],
  ["[INFO]", "info"],
  ["[WARN]", "warn"],
  ["[ERROR]", "error"],
];

/** Go's zero time, which go-plugin prints for an entry without `@timestamp`. */
const GO_ZERO_TIME = "0001-01-01T00:00:00.000Z";

function jsonEntry(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Logs one line of a plugin's stderr on `log` (the plugin's logger, `provider.<executable>`). */
export function logPluginLine(log: Logger, line: string): void {
  if (!log.enabled("error")) return; // logging is off: no parsing
  const entry = jsonEntry(line);
  const level = entry && typeof entry["@level"] === "string" ? levelFromString(entry["@level"]) : undefined;
  if (entry === undefined || level === undefined || (entry["@message"] !== undefined && typeof entry["@message"] !== "string")) {
    const prefixed = entry === undefined ? PREFIXES.find(([p]) => line.startsWith(p)) : undefined;
    log.log(prefixed ? prefixed[1] : "debug", line);
    return;
  }
  if (!log.enabled(level)) return;
  let timestamp = GO_ZERO_TIME;
  if (typeof entry["@timestamp"] === "string") {
    const t = Date.parse(entry["@timestamp"]);
    if (Number.isNaN(t)) {
      log.debug(line);
      return;
    }
    timestamp = hclogTime(new Date(t));
  }
  const keyValues: LogValue[] = [];
  for (const key of Object.keys(entry).sort()) {
    if (key === "@level" || key === "@message" || key === "@timestamp") continue;
    keyValues.push(key, entry[key] as LogValue);
  }
  keyValues.push("timestamp", timestamp);
  log.log(level, (entry["@message"] as string | undefined) ?? "", ...keyValues);
}
