// Small display helpers shared by the pages: dates, ages, sizes, values.

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().replace("T", " ").slice(0, 19) + " UTC";
}

/** "3 min ago" style, for lists where the exact time is in a title attribute. */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const s = Math.round((now - new Date(iso).getTime()) / 1000);
  if (s < 5) return "just now";
  return `${formatAge(s)} ago`;
}

export function formatAge(seconds: number): string {
  if (seconds < 60) return `${seconds}s`;
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${m}m ${seconds % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** A JSON value as one line of text (strings quoted, so "" and null stay distinguishable). */
export function formatValue(v: unknown): string {
  if (v === undefined) return "";
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s;
}

/**
 * Flattens a JSON value into [path, leaf] pairs ("tags.Name", "ingress[0].port"), so nested
 * attributes read as a dense table. Empty objects and arrays stay as leaves.
 */
export function flatten(value: unknown, prefix = "", out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(value) && value.length > 0) {
    value.forEach((v, i) => flatten(v, `${prefix}[${i}]`, out));
  } else if (value !== null && typeof value === "object" && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) {
      const key = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k) ? k : JSON.stringify(k);
      flatten(v, prefix ? `${prefix}.${key}` : key, out);
    }
  } else {
    out.push([prefix || "(value)", value]);
  }
  return out;
}

export const SENSITIVE_TEXT = "(sensitive value)";
