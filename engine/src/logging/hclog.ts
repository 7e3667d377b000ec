// Log lines in go-hclog's formats, which OpenTofu writes under TF_LOG and which people grep,
// paste into bug reports and feed to log tools: the text form
//   2026-11-25T12:00:00.123Z [DEBUG] provider: plugin started: path=/x/terraform-provider-null pid=42
// and, for TF_LOG=JSON, one JSON object per line with `@level`, `@message`, `@module`,
// `@timestamp` and the arguments, keys sorted as Go's encoding/json sorts a map's.
import { goJSONString, goQuote } from "../values/gostrings.js";

export type Level = "trace" | "debug" | "info" | "warn" | "error";

/** Severity order; OFF is above every level. */
export const LEVEL_RANK: Readonly<Record<Level, number>> = { trace: 1, debug: 2, info: 3, warn: 4, error: 5 };
export const OFF_RANK = 6;

/** hclog's brackets: the shorter names are padded so that messages line up. */
const BRACKET: Readonly<Record<Level, string>> = { trace: "[TRACE]", debug: "[DEBUG]", info: "[INFO] ", warn: "[WARN] ", error: "[ERROR]" };

/** A value given with a log message. Arrays print as Go prints a slice. */
export type LogValue = string | number | boolean | null | undefined | Error | readonly LogValue[] | { readonly [key: string]: LogValue };

export interface LogEntry {
  readonly time: Date;
  readonly name: string;
  readonly level: Level;
  readonly message: string;
  /** Key/value pairs in the order given. */
  readonly args: readonly (readonly [string, LogValue])[];
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** Local date and time to the millisecond, and the zone: `Z` for UTC, else ±hh then `sep` then mm. */
function localTime(t: Date, zoneSep: string): { stamp: string; zone: string } {
  const offset = -t.getTimezoneOffset();
  const zone = offset === 0 ? "Z" : `${offset < 0 ? "-" : "+"}${pad(Math.floor(Math.abs(offset) / 60))}${zoneSep}${pad(Math.abs(offset) % 60)}`;
  const stamp = `${pad(t.getFullYear(), 4)}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}:${pad(t.getSeconds())}.${pad(t.getMilliseconds(), 3)}`;
  return { stamp, zone };
}

/** Go's "2006-01-02T15:04:05.000Z0700" (hclog.TimeFormat) in local time: log text lines. */
export function hclogTime(t: Date): string {
  const { stamp, zone } = localTime(t, "");
  return `${stamp}${zone}`;
}

/**
 * Go's "2006-01-02T15:04:05.000000Z07:00" in local time: the `@timestamp` of the JSON lines go-plugin
 * plugins write (the host parses exactly this layout) and of tofu's `-json` views.
 */
export function hclogJSONTime(t: Date): string {
  const { stamp, zone } = localTime(t, ":");
  return `${stamp}000${zone}`;
}

/** Characters hclog prints unquoted: ASCII `-` through `~`. */
const PLAIN = /^[\x2d-\x7e]*$/;

function plainValue(v: LogValue): { text: string; raw: boolean } {
  if (typeof v === "string") return v === "" ? { text: '""', raw: true } : { text: v, raw: false };
  if (Array.isArray(v)) return { text: sliceText(v), raw: true };
  return { text: scalarText(v), raw: false };
}

function scalarText(v: LogValue): string {
  if (v === null || v === undefined) return "<nil>";
  if (v instanceof Error) return v.message;
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

/** Go's rendering of a slice in a log line: strings quoted, numbers bare, others quoted when spaced. */
function sliceText(items: readonly LogValue[]): string {
  const parts = items.map((e) => {
    if (typeof e === "string") return goQuote(e);
    if (typeof e === "number") return String(e);
    const t = Array.isArray(e) ? sliceText(e) : scalarText(e);
    return /[ \t\n\r]/.test(t) ? goQuote(t) : t;
  });
  return `[${parts.join(", ")}]`;
}

/** The text form, newline included. A value with line breaks goes on indented lines of its own. */
export function formatPlain(e: LogEntry): string {
  let out = `${hclogTime(e.time)} ${BRACKET[e.level]} ${e.name === "" ? "" : `${e.name}: `}${e.message}`;
  if (e.args.length > 0) {
    out += ":";
    for (const [key, value] of e.args) {
      const { text, raw } = plainValue(value);
      if (text.includes("\n")) {
        out += `\n  ${key}=\n`;
        for (const line of text.split("\n")) if (line !== "") out += `  | ${line}\n`;
        out += "  ";
      } else if (!raw && !PLAIN.test(text)) out += ` ${key}=${goQuote(text)}`;
      else out += ` ${key}=${text}`;
    }
  }
  return `${out}\n`;
}

function jsonValue(v: LogValue): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "string") return goJSONString(v);
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : goJSONString(String(v));
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v instanceof Error) return goJSONString(v.message);
  if (Array.isArray(v)) return `[${v.map(jsonValue).join(",")}]`;
  return jsonObject(Object.entries(v as { readonly [key: string]: LogValue }));
}

function jsonObject(entries: Iterable<readonly [string, LogValue]>): string {
  const byKey = new Map<string, LogValue>(entries);
  const keys = [...byKey.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${goJSONString(k)}:${jsonValue(byKey.get(k))}`).join(",")}}`;
}

/** The JSON form (TF_LOG=JSON), newline included; `time` formats `@timestamp` (hclog's by default). */
export function formatJSON(e: LogEntry, time: (t: Date) => string = hclogTime): string {
  // The arguments come last so that, as in hclog, one named like a field replaces it.
  const fields: (readonly [string, LogValue])[] = [["@level", e.level], ["@message", e.message], ["@timestamp", time(e.time)]];
  if (e.name !== "") fields.push(["@module", e.name]);
  return `${jsonObject([...fields, ...e.args])}\n`;
}

/** hclog.LevelFromString: a level name in any case, or undefined. */
export function levelFromString(s: string): Level | undefined {
  const l = s.trim().toLowerCase();
  return l === "trace" || l === "debug" || l === "info" || l === "warn" || l === "error" ? l : undefined;
}
