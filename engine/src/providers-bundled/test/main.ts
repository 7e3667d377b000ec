// Entry point of terraform-provider-test (and, with TERRACE_TEST_PROVIDER_NAME=aws, of the
// LEGACY-AWS mock: see bin/mock-aws).
import { servePlugin } from "../../sdk/index.js";
import { testProvider } from "./provider.js";

await servePlugin(testProvider(process.env.TERRACE_TEST_PROVIDER_NAME || "test"));
