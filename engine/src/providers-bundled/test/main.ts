// Entry point of terraform-provider-test (and, with TERRACE_TEST_PROVIDER_NAME=aws, of the
// LEGACY-AWS mock: see bin/mock-aws). TERRACE_TEST_PROVIDER_PROFILE selects a conformance case's
// own schema and behaviours (profiles.ts).
import { servePlugin } from "../../sdk/index.js";
import { testProvider } from "./provider.js";

// Not awaited: the executable runs this as a CommonJS bundle (bin/bundle.cjs), where top-level
// await does not exist. servePlugin reports its own failures and exits.
const name = process.env.TERRACE_TEST_PROVIDER_NAME || "test";
void servePlugin(testProvider(name, process.env.TERRACE_TEST_PROVIDER_PROFILE ?? ""), { address: `registry.opentofu.org/hashicorp/${name}` });
