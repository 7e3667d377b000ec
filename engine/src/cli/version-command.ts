import type { Command } from "./io.js";
import { engineVersion } from "./version.js";

function platform(): string {
  return `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
}

export const versionCommand: Command = async (args, io) => {
  const version = engineVersion();
  if (args.includes("-json")) {
    io.stdout.write(JSON.stringify({ terrace_version: version, platform: platform() }, null, 2) + "\n");
  } else {
    io.stdout.write(`Terrace v${version}\non ${platform()}\n`);
  }
  return 0;
};
