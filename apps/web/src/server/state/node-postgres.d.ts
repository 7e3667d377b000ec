// The parts of node-postgres (`pg`, a dependency of the root package) that the state store uses.
// @types/pg is not installed in this repository; if it ever is, delete this file.
declare module "pg" {
  export type QueryConfig = { text: string; values?: unknown[] };
  export type QueryResult<R> = { rows: R[]; rowCount: number | null };
  export interface PoolClient {
    query<R = Record<string, unknown>>(config: QueryConfig): Promise<QueryResult<R>>;
    query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<QueryResult<R>>;
    release(err?: Error | boolean): void;
  }
  export class Pool {
    constructor(config: { connectionString: string; max?: number; idleTimeoutMillis?: number; allowExitOnIdle?: boolean });
    connect(): Promise<PoolClient>;
    query<R = Record<string, unknown>>(config: QueryConfig): Promise<QueryResult<R>>;
    on(event: "error", listener: (err: Error) => void): this;
    end(): Promise<void>;
  }
  const pg: { Pool: typeof Pool };
  export default pg;
}
