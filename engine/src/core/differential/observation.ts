// What is compared after each step, in one shape for terraform and for core: the plan's actions
// per address (with reason, previous address and import id), the error and warning summaries,
// and the state afterwards read from state file text (so both sides go through the same parser).
// Random values are masked: UUIDs (terraform_data ids) and deposed keys.

export interface Diag {
  readonly summary: string;
  /** Kept for the reader of a mismatch; only summaries are compared. */
  readonly detail: string;
}

export interface ChangeObs {
  readonly action: string;
  /** OpenTofu's ActionReason name; absent for None. */
  readonly reason?: string;
  /** The address in the previous run state, when it differs (moved). */
  readonly prev?: string;
  /** The import id, when the change imports. */
  readonly importing?: string;
}

export interface PlanObs {
  readonly errors: Diag[];
  readonly warnings: Diag[];
  /** By instance address, deposed objects as `ADDR (deposed)`. */
  readonly changes: Record<string, ChangeObs>;
  /** Root output changes: name → action. */
  readonly outputs: Record<string, string>;
}

export interface ApplyObs {
  readonly errors: Diag[];
  readonly warnings: Diag[];
}

export interface InstanceObs {
  readonly attributes: unknown;
  readonly status?: string;
  readonly sensitive?: unknown;
  readonly dependencies?: string[];
  readonly cbd?: true;
}

export interface StateObs {
  readonly resources: Record<string, InstanceObs>;
  readonly outputs: Record<string, { value: unknown; sensitive: boolean }>;
}

export interface StepObs {
  /** Absent for state edits. */
  readonly plan?: PlanObs;
  /** Absent when the plan failed, for plan-only steps and for state edits. */
  readonly apply?: ApplyObs;
  readonly state: StateObs;
}

/** A recorded answer file: `recorded/<scenario>.json`. */
export interface Recording {
  readonly scenario: string;
  /** `stepsDigest` of the scenario when it was recorded. */
  readonly steps_digest: string;
  readonly terraform: string;
  readonly steps: StepObs[];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Random ids replaced by `<uuid>`: terraform_data ids are random on both sides. */
export function maskIds<T>(v: T): T {
  return JSON.parse(JSON.stringify(v).replace(UUID, "<uuid>")) as T;
}

interface StateFileJSON {
  outputs?: Record<string, { value: unknown; sensitive?: boolean }>;
  resources?: Array<{
    module?: string;
    mode: string;
    type: string;
    name: string;
    instances: Array<{
      index_key?: string | number;
      status?: string;
      deposed?: string;
      attributes?: unknown;
      sensitive_attributes?: unknown;
      dependencies?: string[];
      create_before_destroy?: boolean;
    }>;
  }>;
}

/** Deposed keys are random: the deposed objects of an instance are numbered instead. */
export function deposedAddr(taken: Readonly<Record<string, unknown>>, addr: string): string {
  let n = 1;
  while (taken[`${addr} (deposed ${n})`] !== undefined) n++;
  return `${addr} (deposed ${n})`;
}

/** The observed state from state file (format 4) text; an absent file is an empty state. */
export function stateFromFileText(text: string | undefined): StateObs {
  const resources: Record<string, InstanceObs> = {};
  const outputs: Record<string, { value: unknown; sensitive: boolean }> = {};
  if (text === undefined) return { resources, outputs };
  const doc = JSON.parse(text) as StateFileJSON;
  for (const r of doc.resources ?? []) {
    const base = `${r.module ? `${r.module}.` : ""}${r.mode === "data" ? "data." : ""}${r.type}.${r.name}`;
    for (const is of r.instances) {
      const key = is.index_key === undefined ? "" : typeof is.index_key === "number" ? `[${is.index_key}]` : `[${JSON.stringify(is.index_key)}]`;
      const addr = is.deposed ? deposedAddr(resources, base + key) : base + key;
      // The order of the sensitive paths carries no meaning (terraform and OpenTofu walk values
      // differently): sorted, so only the set of paths is compared.
      const sensitive =
        Array.isArray(is.sensitive_attributes) && is.sensitive_attributes.length > 0
          ? [...(is.sensitive_attributes as unknown[])].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0))
          : undefined;
      resources[addr] = maskIds({
        attributes: is.attributes ?? null,
        ...(is.status && is.status !== "ready" ? { status: is.status } : {}),
        ...(sensitive ? { sensitive } : {}),
        ...(is.dependencies && is.dependencies.length > 0 ? { dependencies: [...is.dependencies].sort() } : {}),
        ...(is.create_before_destroy ? { cbd: true as const } : {}),
      });
    }
  }
  for (const [k, o] of Object.entries(doc.outputs ?? {})) outputs[k] = maskIds({ value: o.value, sensitive: o.sensitive ?? false });
  return { resources, outputs };
}

/** Diagnostics sorted by summary so their order (a walk detail) does not matter. */
export function sortDiags(ds: Diag[]): Diag[] {
  return [...ds].sort((a, b) => (a.summary < b.summary ? -1 : a.summary > b.summary ? 1 : a.detail < b.detail ? -1 : a.detail > b.detail ? 1 : 0));
}
