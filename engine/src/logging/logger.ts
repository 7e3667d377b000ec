// The engine's debug log: what OpenTofu prints under TF_LOG. Off unless a CLI invocation turns it
// on (cli/run.ts, from the environment: logging/env.ts), so library callers (the web app, the
// worker, tests) pay one comparison per call site. Two loggers, as in OpenTofu: the core's and the
// providers' (the plugin host and the lines plugins print), each with its own level.
import { formatJSON, formatPlain, LEVEL_RANK, OFF_RANK, type Level, type LogEntry, type LogValue } from "./hclog.js";

export interface LogSink {
  /** TF_LOG=JSON: one JSON object per line. */
  readonly json: boolean;
  /** How JSON lines write `@timestamp` (default hclog's; plugins write go-plugin's). */
  readonly jsonTime?: (t: Date) => string;
  write(text: string): void;
}

/** hclog's key for a value given without one. */
const MISSING_KEY = "EXTRA_VALUE_AT_END";

export class Logger {
  constructor(
    private readonly sink: LogSink | undefined,
    readonly name: string,
    private readonly threshold: number,
    /** Key/value pairs every line carries (hclog's With). */
    private readonly implied: readonly LogValue[] = [],
  ) {}

  /** A logger whose lines carry `name` after this one's (`provider.terraform-provider-null`). */
  named(name: string): Logger {
    return new Logger(this.sink, this.name === "" ? name : `${this.name}.${name}`, this.threshold, this.implied);
  }

  /** A logger named `name` alone (hclog's ResetNamed). */
  resetNamed(name: string): Logger {
    return new Logger(this.sink, name, this.threshold, this.implied);
  }

  /** A logger whose lines all carry these key/value pairs first (hclog's With). */
  with(...keyValues: LogValue[]): Logger {
    return new Logger(this.sink, this.name, this.threshold, [...this.implied, ...keyValues]);
  }

  enabled(level: Level): boolean {
    return this.sink !== undefined && LEVEL_RANK[level] >= this.threshold;
  }

  /** A message and key/value pairs: `log("debug", "plugin started", "path", p, "pid", 42)`. */
  log(level: Level, message: string, ...keyValues: LogValue[]): void {
    if (this.sink === undefined || LEVEL_RANK[level] < this.threshold) return;
    const all = this.implied.length === 0 ? keyValues : [...this.implied, ...keyValues];
    const args: (readonly [string, LogValue])[] = [];
    for (let i = 0; i < all.length; i += 2) {
      if (i + 1 < all.length) args.push([String(all[i]), all[i + 1]]);
      else args.push([MISSING_KEY, all[i]]);
    }
    const entry: LogEntry = { time: new Date(), name: this.name, level, message, args };
    this.sink.write(this.sink.json ? formatJSON(entry, this.sink.jsonTime) : formatPlain(entry));
  }

  trace(message: string, ...keyValues: LogValue[]): void {
    this.log("trace", message, ...keyValues);
  }
  debug(message: string, ...keyValues: LogValue[]): void {
    this.log("debug", message, ...keyValues);
  }
  info(message: string, ...keyValues: LogValue[]): void {
    this.log("info", message, ...keyValues);
  }
  warn(message: string, ...keyValues: LogValue[]): void {
    this.log("warn", message, ...keyValues);
  }
  error(message: string, ...keyValues: LogValue[]): void {
    this.log("error", message, ...keyValues);
  }
}

/** The loggers of one CLI invocation. */
export interface Loggers {
  readonly core: Logger;
  /** Named `provider`: the plugin host's lines, and (named further) the plugins' own. */
  readonly provider: Logger;
  /** The variables a plugin reads to decide its own logging, passed on to the plugins started. */
  readonly pluginEnv: Readonly<Record<string, string>>;
}

export const LOGGING_OFF: Loggers = {
  core: new Logger(undefined, "", OFF_RANK),
  provider: new Logger(undefined, "provider", OFF_RANK),
  pluginEnv: {},
};

let current: Loggers = LOGGING_OFF;

/** The core's logger for the command being run (off outside one). */
export function coreLog(): Logger {
  return current.core;
}

/** The providers' logger for the command being run. */
export function providerLog(): Logger {
  return current.provider;
}

/** The log settings to hand to a plugin process's environment. */
export function pluginLogEnv(): Readonly<Record<string, string>> {
  return current.pluginEnv;
}

/** Runs `f` with `loggers` as the current ones (a CLI invocation: see logging/env.ts). */
export async function withLoggers<T>(loggers: Loggers, f: () => Promise<T>): Promise<T> {
  const previous = current;
  current = loggers;
  try {
    return await f();
  } finally {
    current = previous;
  }
}
