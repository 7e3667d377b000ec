// Shapes of the Terrace v1 API responses the UI reads (see docs/api.md).

export type Level = "read" | "plan" | "write" | "admin";
export const LEVELS: Level[] = ["read", "plan", "write", "admin"];

export type Paged<T> = { data: T[]; pagination: { page: number; pageSize: number; total: number } };

export type User = { id: string; email: string; name: string };
export type Me = { user: User; organizations: { name: string; role: "owner" | "member" }[] };
export type Org = { name: string; role: "owner" | "member"; isOwner: boolean; canCreateWorkspaces: boolean };

export type Workspace = {
  name: string;
  description: string | null;
  level: Level;
  createdAt: string;
  updatedAt: string;
  locked: boolean;
  current: null | { serial: number; resourceCount: number; encrypted: boolean; createdAt: string };
};

export type Lock =
  | { locked: false }
  | {
      locked: true;
      id: string;
      operation: string;
      who: string;
      version: string;
      created: string;
      path: string;
      info: string;
      holder: string;
      lockedAt: string;
      ageSeconds: number;
    };

export type StateVersion = {
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
  source: "cli" | "run" | "rollback" | "api";
  actorLabel: string;
  lockId: string | null;
  rolledBackFromSerial: number | null;
  createdAt: string;
  current: boolean;
};

export type StateOutput = { name: string; type: unknown; sensitive: boolean; value: unknown };
export type ModuleSummary = { module: string; resourceCount: number; instanceCount: number };
export type VersionDetail = { data: StateVersion; outputs: StateOutput[]; modules: ModuleSummary[] };

export type InstanceRow = {
  address: string;
  module: string;
  mode: "managed" | "data";
  type: string;
  name: string;
  key: null | string | number;
  provider: string;
  providerLevel: "instance" | "resource";
  status: null | "tainted";
  deposed: string[];
};
export type InstancePage = { total: number; data: InstanceRow[] };

export type InstanceDetail = {
  address: string;
  provider: string;
  schemaVersion: number | null;
  attributes: unknown;
  sensitivePaths: unknown[][];
  dependencies: string[];
  status?: "tainted" | null;
  deposed: { key: string; status?: "tainted" | null; attributes: unknown }[];
};

export type ChangeAction = "added" | "removed" | "changed";
/** `meta`: a change of instance metadata (provider, status, schema version, dependencies), not of an attribute. */
export type AttributeChange = { path: string; action: ChangeAction; before: unknown; after: unknown; sensitive: boolean; meta?: true };
export type DiffRow = {
  address: string;
  module: string;
  deposed: string | null;
  action: ChangeAction;
  provider: string;
  changes: AttributeChange[];
  /** Changes left out of `changes` (the server sends at most 1,000 per object). */
  changesOmitted?: number;
};
export type StateDiff = {
  from: StateVersion;
  to: StateVersion;
  summary: { added: number; removed: number; changed: number; unchanged: number };
  outputs: { name: string; action: ChangeAction; sensitive: boolean; before: unknown; after: unknown }[];
  total: number;
  data: DiffRow[];
};

export type Token = {
  id: string;
  prefix: string;
  description: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
  owner: { type: "user" | "team"; id: string };
};
export type CreatedToken = { token: string; data: Token };

export type Member = { userId: string; email: string; name: string; role: "owner" | "member" };
export type Team = {
  name: string;
  manageWorkspaces: boolean;
  members: { userId: string; email: string; name: string }[];
  createdAt: string;
};
export type Access = { team: string; level: Level };

export type AuditEvent = {
  id: string;
  action: string;
  actorLabel: string;
  targetType: string;
  targetId: string | null;
  targetLabel: string | null;
  ip: string | null;
  detail: unknown;
  createdAt: string;
};
