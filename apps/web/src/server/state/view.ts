import type { Prisma, StateSource } from "@prisma/client";

/** The columns of a state version other than its (large, sealed) content. */
export const VERSION_META = {
  id: true,
  workspaceId: true,
  serial: true,
  lineage: true,
  terraformVersion: true,
  sha256: true,
  md5: true,
  size: true,
  resourceCount: true,
  instanceCount: true,
  encrypted: true,
  source: true,
  lockId: true,
  rolledBackFromId: true,
  createdById: true,
  tokenId: true,
  actorLabel: true,
  createdAt: true,
} satisfies Prisma.StateVersionSelect;

export type VersionMeta = Prisma.StateVersionGetPayload<{ select: typeof VERSION_META }>;

export type StateVersionView = {
  id: string;
  serial: number;
  lineage: string;
  terraformVersion: string;
  sha256: string;
  md5: string;
  size: number;
  resourceCount: number;
  instanceCount: number;
  /** Encrypted by the client (OpenTofu's state encryption): resources and outputs are not known. */
  encrypted: boolean;
  source: StateSource;
  actorLabel: string;
  lockId: string | null;
  rolledBackFromSerial: number | null;
  createdAt: Date;
  current: boolean;
};

/** A state version as the API shows it (docs/api.md, "StateVersion"). */
export function stateVersionView(v: VersionMeta, opts: { current: boolean; rolledBackFromSerial: bigint | null }): StateVersionView {
  return {
    id: v.id,
    serial: Number(v.serial),
    lineage: v.lineage,
    terraformVersion: v.terraformVersion,
    sha256: v.sha256,
    md5: v.md5,
    size: v.size,
    resourceCount: v.resourceCount,
    instanceCount: v.instanceCount,
    encrypted: v.encrypted,
    source: v.source,
    actorLabel: v.actorLabel,
    lockId: v.lockId,
    rolledBackFromSerial: opts.rolledBackFromSerial === null ? null : Number(opts.rolledBackFromSerial),
    createdAt: v.createdAt,
    current: opts.current,
  };
}
