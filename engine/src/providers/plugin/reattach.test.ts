import { describe, expect, it } from "vitest";
import { parseReattachProviders } from "./reattach.js";

const entry = (o: object) => JSON.stringify(o);

describe("TF_REATTACH_PROVIDERS", () => {
  it("is empty when unset", () => {
    expect(parseReattachProviders(undefined)).toEqual({ ok: true, providers: new Map() });
    expect(parseReattachProviders("")).toEqual({ ok: true, providers: new Map() });
  });

  it("reads go-plugin's ReattachConfig per provider, short addresses on the default registry, field names in any case", () => {
    const r = parseReattachProviders(
      entry({
        "hashicorp/null": { Protocol: "grpc", ProtocolVersion: 6, Pid: 42, Test: true, Addr: { Network: "unix", String: "/tmp/plugin1/plugin.sock" } },
        "registry.terraform.io/hashicorp/aws": { protocol: "grpc", pid: 7, addr: { network: "tcp", string: "127.0.0.1:1234" } },
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Object.fromEntries(r.providers)).toEqual({
      "registry.opentofu.org/hashicorp/null": { protocol: "grpc", protocolVersion: 6, pid: 42, test: true, network: "unix", address: "/tmp/plugin1/plugin.sock" },
      "registry.terraform.io/hashicorp/aws": { protocol: "grpc", protocolVersion: 0, pid: 7, test: false, network: "tcp", address: "127.0.0.1:1234" },
    });
  });

  it("refuses what OpenTofu refuses, with its messages", () => {
    expect(parseReattachProviders("{bad")).toMatchObject({ ok: false, error: expect.stringMatching(/^Invalid format for TF_REATTACH_PROVIDERS: /) as unknown });
    expect(parseReattachProviders("[]")).toMatchObject({ ok: false, error: expect.stringMatching(/^Invalid format for TF_REATTACH_PROVIDERS: /) as unknown });
    expect(parseReattachProviders(entry({ "not a provider!": { Addr: { Network: "unix", String: "/x" } } }))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Error parsing "not a provider!" as a provider address: /) as unknown,
    });
    expect(parseReattachProviders(entry({ "hashicorp/null": { Addr: { Network: "udp", String: "x" } } }))).toEqual({
      ok: false,
      error: 'Unknown address type "udp" for "hashicorp/null"',
    });
    expect(parseReattachProviders(entry({ "hashicorp/null": { Addr: { Network: "tcp", String: "localhost" } } }))).toEqual({
      ok: false,
      error: 'Invalid TCP address "localhost" for "hashicorp/null": address localhost: missing port in address',
    });
  });
});
