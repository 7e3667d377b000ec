// Entry point of terraform-provider-random.
import { servePlugin } from "../../sdk/index.js";
import { randomProvider } from "./provider.js";

// Not awaited: the executable runs this as a CommonJS bundle (bin/bundle.cjs), where top-level
// await does not exist. servePlugin reports its own failures and exits.
void servePlugin(randomProvider, { address: "registry.opentofu.org/hashicorp/random" });
