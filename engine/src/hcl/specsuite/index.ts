// The HCL specsuite harness (an hcldec equivalent), used by scripts/conformance.mjs and the tests.
export { runSpecTest, type CaseResult } from "./runner.js";
