// The simulated cloud behind the `sim` provider: objects are JSON files on disk, one directory per
// region, so separate provider processes (Terraform starts several per command) and tests see the
// same world. A control file in the data directory injects failures and latency; editing or
// deleting object files is out-of-band drift. Layout:
//
//   <data_dir>/control.json                         optional, see SimControl
//   <data_dir>/regions/<region>/<type>/<id>.json    one object (its attributes)

import { createHash, randomBytes } from "node:crypto";
import { mkdir, readFile, readdir, rename, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export const SIM_REGIONS = ["us-east-1", "us-west-2", "eu-west-1", "eu-central-1", "ap-southeast-1"] as const;
export const SIM_ACCOUNT = "123456789012";

export type SimObject = Record<string, unknown>;

export type SimOperation = "create" | "read" | "update" | "delete" | "import" | "data";

/** One injected failure: the next `times` matching operations fail with `message`. */
export interface SimFailure {
  /** Operation to fail, or "*" for any. */
  readonly operation: SimOperation | "*";
  /** Resource or data source type ("sim_instance"); absent matches every type. */
  readonly type?: string;
  /** Region; absent matches every region. */
  readonly region?: string;
  /** Only objects whose `name` (or id) is this. */
  readonly name?: string;
  readonly message: string;
  /** How many times to fail (default: every time). */
  readonly times?: number;
}

export interface SimControl {
  readonly failures?: readonly SimFailure[];
  /** Milliseconds to wait per operation, by operation name or "*". */
  readonly latency_ms?: Readonly<Partial<Record<SimOperation | "*", number>>>;
}

/** The data directory: explicit, else $SIM_HOME, else a per-user default under the temp dir. */
export function simDataDir(explicit?: string | null): string {
  return explicit || process.env.SIM_HOME || path.join(os.tmpdir(), `terrace-sim-${os.userInfo().username}`);
}

export class SimError extends Error {}

export class SimCloud {
  constructor(readonly dataDir: string) {}

  private file(region: string, type: string, id: string): string {
    return path.join(this.dataDir, "regions", region, type, `${encodeURIComponent(id)}.json`);
  }

  async get(region: string, type: string, id: string): Promise<SimObject | undefined> {
    try {
      return JSON.parse(await readFile(this.file(region, type, id), "utf8")) as SimObject;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  async put(region: string, type: string, id: string, obj: SimObject): Promise<void> {
    const f = this.file(region, type, id);
    await mkdir(path.dirname(f), { recursive: true });
    const tmp = `${f}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    await writeFile(tmp, `${JSON.stringify(obj, null, 2)}\n`);
    await rename(tmp, f);
  }

  /** Merges `patch` into a stored object (out-of-band drift in tests). */
  async patch(region: string, type: string, id: string, patch: SimObject): Promise<void> {
    const cur = await this.get(region, type, id);
    if (!cur) throw new SimError(`${type} ${id} not found in ${region}`);
    await this.put(region, type, id, { ...cur, ...patch });
  }

  async remove(region: string, type: string, id: string): Promise<boolean> {
    const f = this.file(region, type, id);
    try {
      await rm(f);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw e;
    }
  }

  async list(region: string, type: string): Promise<SimObject[]> {
    const dir = path.join(this.dataDir, "regions", region, type);
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const out: SimObject[] = [];
    for (const n of names.filter((x) => x.endsWith(".json")).sort()) {
      const obj = await this.get(region, type, decodeURIComponent(n.slice(0, -5)));
      if (obj) out.push(obj);
    }
    return out;
  }

  async control(): Promise<SimControl> {
    try {
      return JSON.parse(await readFile(path.join(this.dataDir, "control.json"), "utf8")) as SimControl;
    } catch {
      return {};
    }
  }

  async setControl(c: SimControl): Promise<void> {
    await mkdir(this.dataDir, { recursive: true });
    await writeFile(path.join(this.dataDir, "control.json"), `${JSON.stringify(c, null, 2)}\n`);
  }

  /**
   * Applies the control file to one operation: waits the configured latency, then throws the
   * first matching injected failure (counting down its `times`).
   */
  async gate(op: SimOperation, type: string, region: string, name?: string): Promise<void> {
    const c = await this.control();
    const wait = c.latency_ms?.[op] ?? c.latency_ms?.["*"] ?? 0;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const failures = [...(c.failures ?? [])];
    const i = failures.findIndex(
      (f) =>
        (f.operation === "*" || f.operation === op) &&
        (!f.type || f.type === type) &&
        (!f.region || f.region === region) &&
        (!f.name || f.name === name) &&
        (f.times === undefined || f.times > 0),
    );
    if (i === -1) return;
    const f = failures[i] as SimFailure;
    if (f.times !== undefined) {
      failures[i] = { ...f, times: f.times - 1 };
      await this.setControl({ ...c, failures });
    }
    throw new SimError(f.message);
  }
}

export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(8).toString("hex").slice(0, 12)}`;
}

export function arn(region: string, service: string, resource: string): string {
  return `arn:sim:${service}:${region}:${SIM_ACCOUNT}:${resource}`;
}

export interface SimImage {
  readonly id: string;
  readonly name: string;
  readonly architecture: string;
}

export const SIM_IMAGE_NAMES = ["ubuntu-22.04", "ubuntu-24.04", "debian-12", "amazon-linux-2023"] as const;

/** The image catalogue: the same names in every region, with region-specific ids. */
export function simImage(region: string, name: string): SimImage | undefined {
  if (!(SIM_IMAGE_NAMES as readonly string[]).includes(name)) return undefined;
  const id = `img-${createHash("sha256").update(`${region}/${name}`).digest("hex").slice(0, 12)}`;
  return { id, name, architecture: name.startsWith("amazon") ? "arm64" : "x86_64" };
}
