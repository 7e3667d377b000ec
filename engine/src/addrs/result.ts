// The shape every parser in this module returns: diagnostics are values (OpenTofu's tfdiags), so a
// caller appends them to its own list and keeps going instead of catching exceptions.
import type { Diagnostic } from "../hcl/index.js";

export interface AddrResult<T> {
  /**
   * The parsed address. Undefined when the input could not be parsed at all; some parsers (as
   * in OpenTofu) also return what they did parse alongside error diagnostics.
   */
  result: T | undefined;
  diagnostics: Diagnostic[];
}
