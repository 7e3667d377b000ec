// The platform this process runs on, in Go's GOOS_GOARCH words (linux_amd64), which is how
// provider packages are named.
import type { Platform } from "./source.js";

const OS: Record<string, string> = { linux: "linux", darwin: "darwin", win32: "windows", freebsd: "freebsd", openbsd: "openbsd", sunos: "solaris", aix: "aix" };
const ARCH: Record<string, string> = { x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm", ppc64: "ppc64le", s390x: "s390x", riscv64: "riscv64" };

export function currentPlatform(): Platform {
  return { os: OS[process.platform] ?? process.platform, arch: ARCH[process.arch] ?? process.arch };
}
