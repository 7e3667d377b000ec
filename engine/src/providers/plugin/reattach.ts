// TF_REATTACH_PROVIDERS: providers someone else started, usually in a debugger (a provider run with
// `-debug`), that the CLI connects to instead of starting its own. The value is JSON, one entry per
// provider source address, in go-plugin's ReattachConfig shape:
//   {"hashicorp/null": {"Protocol": "grpc", "ProtocolVersion": 6, "Pid": 4242, "Test": true,
//                       "Addr": {"Network": "unix", "String": "/tmp/plugin123/plugin.sock"}}}
// `Test` means the provider outlives each command: the CLI neither stops nor kills it.
import { parseProviderSourceString } from "../../addrs/provider.js";

export const REATTACH_ENV = "TF_REATTACH_PROVIDERS";

export interface ReattachConfig {
  readonly protocol: string;
  /** 0 when the provider did not say: protocol 5, as OpenTofu assumes. */
  readonly protocolVersion: number;
  readonly pid: number;
  readonly test: boolean;
  readonly network: "unix" | "tcp";
  readonly address: string;
}

export type ReattachResult = { ok: true; providers: ReadonlyMap<string, ReattachConfig> } | { ok: false; error: string };

const NONE: ReattachResult = { ok: true, providers: new Map() };

function field(o: Record<string, unknown>, name: string): unknown {
  return o[name] ?? Object.entries(o).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
}

/**
 * The reattach entries by provider address (`registry.opentofu.org/hashicorp/null`), or OpenTofu's
 * error for a value it would refuse. Keys are matched without regard to case, as Go's JSON decoder
 * matches struct fields.
 */
export function parseReattachProviders(value: string | undefined): ReattachResult {
  if (value === undefined || value === "") return NONE;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (e) {
    return { ok: false, error: `Invalid format for ${REATTACH_ENV}: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { ok: false, error: `Invalid format for ${REATTACH_ENV}: the value must be a JSON object of provider addresses` };
  }
  const providers = new Map<string, ReattachConfig>();
  for (const [key, entry] of Object.entries(parsed as Record<string, unknown>)) {
    const addr = parseProviderSourceString(key);
    if (!addr.result || addr.diagnostics.some((d) => d.severity === "error")) {
      const why = addr.diagnostics.map((d) => d.detail || d.summary).join("; ");
      return { ok: false, error: `Error parsing ${JSON.stringify(key)} as a provider address: ${why}` };
    }
    const c = entry !== null && typeof entry === "object" && !Array.isArray(entry) ? (entry as Record<string, unknown>) : {};
    const addrField = field(c, "Addr");
    const a = addrField !== null && typeof addrField === "object" ? (addrField as Record<string, unknown>) : {};
    const network = String(field(a, "Network") ?? "");
    const address = String(field(a, "String") ?? "");
    if (network !== "unix" && network !== "tcp") return { ok: false, error: `Unknown address type ${JSON.stringify(network)} for ${JSON.stringify(key)}` };
    if (network === "tcp" && !/^[^:]*:\d+$|^\[[^\]]*\]:\d+$/.test(address)) {
      return { ok: false, error: `Invalid TCP address ${JSON.stringify(address)} for ${JSON.stringify(key)}: address ${address}: missing port in address` };
    }
    const num = (v: unknown) => (typeof v === "number" && Number.isInteger(v) ? v : 0);
    providers.set(addr.result.toString(), {
      protocol: String(field(c, "Protocol") ?? ""),
      protocolVersion: num(field(c, "ProtocolVersion")),
      pid: num(field(c, "Pid")),
      test: field(c, "Test") === true,
      network,
      address,
    });
  }
  return { ok: true, providers };
}
