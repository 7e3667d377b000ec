// Recorded answers for calls that panic inside Go carry the goroutine's stack trace in their
// detail. We report the panic message without a stack, so tests compare up to the trace.
import type { OracleAnswer } from "./oracle.testkit.js";

export function withoutPanicTrace(a: OracleAnswer): OracleAnswer {
  if (a.ok || !/goroutine \d+ \[running\]:/.test(a.detail)) return a;
  return { ...a, detail: a.detail.replace(/\s*goroutine \d+ \[running\]:[\s\S]*$/, "") + "." };
}
