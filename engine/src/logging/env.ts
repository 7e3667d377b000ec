// OpenTofu's logging variables, read once per CLI invocation:
//   TF_LOG           level for everything: TRACE, DEBUG, INFO, WARN, ERROR, OFF, or JSON (TRACE as
//                    JSON lines); another value warns and logs at TRACE
//   TF_LOG_CORE      the core's level when TF_LOG is unset
//   TF_LOG_PROVIDER  the providers' level (the plugin host and the plugins' own lines), else TF_LOG
//   TF_LOG_PATH      append the log to this file instead of writing it to stderr
import { closeSync, openSync, writeSync } from "node:fs";
import { LEVEL_RANK, OFF_RANK, levelFromString } from "./hclog.js";
import { LOGGING_OFF, Logger, type Loggers, type LogSink } from "./logger.js";
import { goPathError } from "../host/errno.js";

export const VALID_LOG_LEVELS = ["TRACE", "DEBUG", "INFO", "WARN", "ERROR", "OFF"] as const;

export interface LoggingSetup {
  readonly loggers: Loggers;
  /** Closes the log file, if one was opened. */
  close(): void;
}

type Env = Readonly<Record<string, string | undefined>>;

/** A level variable's threshold; `warn` receives OpenTofu's complaint about an unknown name. */
function threshold(value: string, warn: (text: string) => void): number {
  if (value === "" || value === "OFF") return OFF_RANK;
  if (value === "JSON") return LEVEL_RANK.trace;
  const level = levelFromString(value);
  if (level !== undefined) return LEVEL_RANK[level];
  warn(`[WARN] Invalid log level: ${JSON.stringify(value)}. Defaulting to level: TRACE. Valid levels are: [${VALID_LOG_LEVELS.join(" ")}]\n`);
  return LEVEL_RANK.trace;
}

/** The loggers `env` asks for, writing to `stderr` or to TF_LOG_PATH. */
export function loggingFromEnv(env: Env, stderr: { write(chunk: string): unknown }): LoggingSetup {
  const upper = (name: string) => (env[name] ?? "").toUpperCase();
  const coreValue = upper("TF_LOG") || upper("TF_LOG_CORE");
  const providerValue = upper("TF_LOG_PROVIDER") || upper("TF_LOG");
  const logPath = env["TF_LOG_PATH"] ?? "";
  if (coreValue === "" && providerValue === "" && logPath === "") return { loggers: LOGGING_OFF, close: () => undefined };

  const warn = (text: string) => void stderr.write(text);
  const coreThreshold = threshold(coreValue, warn);
  const providerThreshold = providerValue === coreValue ? coreThreshold : threshold(providerValue, warn);

  let fd: number | undefined;
  if (logPath !== "") {
    try {
      // As OpenTofu does, the file is opened (and created) whenever TF_LOG_PATH is set.
      fd = openSync(logPath, "a", 0o666);
    } catch (e) {
      stderr.write(`Error opening log file: ${goPathError(e, "open", logPath)}\n`);
    }
  }
  const json = coreValue === "JSON";
  const sink: LogSink = fd === undefined ? { json, write: (text) => void stderr.write(text) } : { json, write: (text) => void (fd !== undefined && writeSync(fd, text)) };

  const pluginEnv: Record<string, string> = {};
  for (const name of ["TF_LOG", "TF_LOG_PROVIDER"]) {
    const value = env[name];
    if (value !== undefined) pluginEnv[name] = value;
  }
  return {
    loggers: {
      core: new Logger(coreThreshold < OFF_RANK ? sink : undefined, "", coreThreshold),
      provider: new Logger(providerThreshold < OFF_RANK ? sink : undefined, "provider", providerThreshold),
      pluginEnv,
    },
    close: () => {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
}
