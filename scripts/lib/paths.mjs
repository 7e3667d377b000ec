import path from "node:path";

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
export const WEB = path.join(ROOT, "apps", "web");
export const ENGINE = path.join(ROOT, "engine");

/** Where Terrace keeps its data when nothing else is configured. */
export function terraceHome() {
  return path.resolve(process.env.TERRACE_HOME ?? path.join(ROOT, ".terrace"));
}
