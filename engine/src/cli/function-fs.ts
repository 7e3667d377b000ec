// The real file system for the function library when the engine runs under Node (the CLI):
// file functions read module files from disk. Errors carry the texts Go's os package gives, since
// OpenTofu passes those through to users ("open x: permission denied").
import { readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FunctionFileSystem } from "../lang/functions/index.js";
import { errnoCode, goErrnoText } from "../host/errno.js";

function goError(op: string, p: string, e: unknown): Error {
  return new Error(`${op} ${p}: ${goErrnoText(e)}`);
}

export class NodeFunctionFileSystem implements FunctionFileSystem {
  constructor(private readonly cwd: string = process.cwd()) {}

  readFile(p: string): Uint8Array | undefined {
    try {
      return new Uint8Array(readFileSync(this.abs(p)));
    } catch (e) {
      const code = errnoCode(e);
      if (code === "ENOENT") return undefined;
      if (code === "EISDIR") throw goError("read", p, e);
      throw goError("open", p, e);
    }
  }

  isFile(p: string): boolean {
    try {
      return statSync(this.abs(p)).isFile();
    } catch {
      return false;
    }
  }

  isDirectory(p: string): boolean {
    try {
      return statSync(this.abs(p)).isDirectory();
    } catch {
      return false;
    }
  }

  readDir(p: string): readonly string[] {
    try {
      return readdirSync(this.abs(p));
    } catch (e) {
      throw goError("open", p, e);
    }
  }

  abs(p: string): string {
    return path.resolve(this.cwd, p);
  }

  home(): string | undefined {
    // go-homedir prefers $HOME, as we do.
    const h = process.env.HOME;
    return h !== undefined && h !== "" ? h : os.homedir() || undefined;
  }
}
