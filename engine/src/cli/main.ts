import { engineVersion } from "./version.js";

const USAGE = `Usage: terrace [global options] <subcommand> [args]

Main commands:
  version       Show the current Terrace version
`;

function main(argv: string[]): number {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "version":
    case "-version":
    case "--version":
    case "-v": {
      const json = rest.includes("-json");
      const version = engineVersion();
      if (json) {
        process.stdout.write(JSON.stringify({ terrace_version: version, platform: `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}` }, null, 2) + "\n");
      } else {
        process.stdout.write(`Terrace v${version}\non ${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}\n`);
      }
      return 0;
    }
    case undefined:
    case "-help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return cmd === undefined ? 127 : 0;
    default:
      process.stderr.write(`terrace: unknown command "${cmd}"\n\n${USAGE}`);
      return 127;
  }
}

process.exitCode = main(process.argv.slice(2));
